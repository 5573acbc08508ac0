package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Reader is a downstream consumer of the output topic. Every record
// the broker returns to it is one effect on the kafka-output sink: that is
// where a Kafka output is counted, as its readers see it. Its isolation
// level decides what it sees: read_committed stops at the first open
// transaction and skips aborted records; read_uncommitted sees every
// record as soon as it is appended, aborted ones included.
//
// It keeps its position durably and has one fetch in flight at a time; a
// fetch with nothing to return waits at the broker (a long poll), so a run
// ends when nothing is left to read.
type Reader struct {
	Broker    sim.NodeID
	Isolation int64
}

const krPosition sim.TableID = 0 // row 1: next offset to read

func kafkaReaderTables() []sim.TableSpec {
	return []sim.TableSpec{{Name: "position", Durable: true, AgeFree: true}}
}

func (k *Reader) fetch(ctx *sim.Context) {
	pos, ok := ctx.Get(krPosition, 1, 0)
	if !ok {
		pos.Value = 1
	}
	ctx.Send(k.Broker, fetch{Position: pos.Value, Topic: topicOutput, Isolation: k.Isolation}.encode())
}

// Start sends the first fetch.
func (k *Reader) Start(ctx *sim.Context) { k.fetch(ctx) }

// Timer is unused.
func (k *Reader) Timer(*sim.Context, sim.Timer) {}

// Receive counts a record it has not read yet and fetches the next one.
func (k *Reader) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgRecord {
		return
	}
	r := decodeRecord(m)
	if r.Topic != topicOutput {
		return
	}
	pos, ok := ctx.Get(krPosition, 1, r.Op)
	if !ok {
		pos.Value = 1
	}
	if r.Offset < pos.Value {
		return
	}
	ctx.Effect(SinkOutput, r.Op, r.Offset)
	ctx.Put(krPosition, 1, r.Op, sim.Record{Value: r.Offset + 1})
	k.fetch(ctx)
}

var isolationValues = []string{"read_committed", "read_uncommitted"}

// isolation reads an isolation-level option: readCommitted or
// readUncommitted.
func isolation(a *roles.Args, name, doc string) int64 {
	if a.Enum(name, "read_committed", isolationValues, doc) == "read_uncommitted" {
		return readUncommitted
	}
	return readCommitted
}

// newReader reads the options the family's readers share.
func newReader(a *roles.Args) Reader {
	return Reader{
		Broker:    partitionLeader(a),
		Isolation: isolation(a, "isolation", "read_committed skips aborted and open transactions; read_uncommitted sees every record"),
	}
}

// buildReader builds a kafka-reader node from its options, each declared where it is read.
func buildReader(a *roles.Args) (sim.Node, []sim.TableSpec) {
	r := newReader(a)
	return &r, kafkaReaderTables()
}
