package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// PIDBroker is a partition leader's log. Every record it appends is an
// effect on log-records. A publish without a producer id is appended
// whatever it is; one with a producer id goes through Kafka's sequence
// check, kept per producer id in a durable table:
//
//   - sequence = last + 1: appended (201), last advances;
//   - sequence ≤ last: a duplicate of a record already in the log —
//     acknowledged (200) and not appended;
//   - sequence > last + 1: out of order, an earlier record is missing —
//     rejected (409); the producer retries.
//
// Under at-most-once a network copy of one publish is dropped by the
// transport, as TCP would.
type PIDBroker struct{}

const (
	pidBrokerLog       sim.TableID = iota // offset → {Value: op, Aux: producer id, Status: sequence}
	pidBrokerProducers                    // producer id → {Value: last sequence appended, Aux: its offset}
	pidBrokerSeen                         // (op, attempt) publishes seen: at-most-once transport dedup
)

// Start does nothing: the broker is driven by publishes.
func (b *PIDBroker) Start(*sim.Context) {}

// Timer is unused.
func (b *PIDBroker) Timer(*sim.Context, sim.Timer) {}

// Receive appends, deduplicates or rejects a publish.
func (b *PIDBroker) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPublish {
		return
	}
	if ctx.Semantics() == sim.AtMostOnce && transportDup(ctx, pidBrokerSeen, opAttemptKey(m.Op, m.Attempt), m.Op) {
		return
	}
	if pid := m.Value; pid != 0 {
		p, _ := ctx.Get(pidBrokerProducers, pid, m.Op)
		switch {
		case m.Key <= p.Value:
			b.ack(ctx, m, roles.StatusOK, 0) // a duplicate: already in the log
			return
		case m.Key > p.Value+1:
			b.ack(ctx, m, roles.StatusConflict, 0) // out of order
			return
		}
		offset := b.append(ctx, m)
		ctx.Put(pidBrokerProducers, pid, m.Op, sim.Record{Value: m.Key, Aux: offset})
		b.ack(ctx, m, roles.StatusCreated, offset)
		return
	}
	b.ack(ctx, m, roles.StatusCreated, b.append(ctx, m))
}

func (b *PIDBroker) append(ctx *sim.Context, m sim.Message) int64 {
	offset := int64(ctx.Rows(pidBrokerLog).Len() + 1)
	ctx.Put(pidBrokerLog, offset, m.Op, sim.Record{Value: int64(m.Op), Aux: m.Value, Status: int32(m.Key)})
	ctx.Effect(SinkLogRecords, m.Op, offset)
	return offset
}

func (b *PIDBroker) ack(ctx *sim.Context, m sim.Message, status int32, offset int64) {
	ctx.Send(m.From, sim.Message{Kind: MsgPublishAck, Op: m.Op, Attempt: m.Attempt, Key: m.Key, Value: offset, Status: status})
}

func init() {
	roles.Register(&roles.Role{
		Name: "pid-broker",
		Doc:  "a log that appends every publish (an effect on log-records) and deduplicates by producer id and sequence number when a publish carries them",
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &PIDBroker{}, []sim.TableSpec{
				{Name: "log", Durable: true},
				{Name: "producers", Durable: true, Traced: true},
				{Name: "seen", Durable: true},
			}
		},
	})
}
