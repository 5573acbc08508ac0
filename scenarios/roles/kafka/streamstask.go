package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// SinkCount counts, per operation, the aggregate a Kafka Streams task's
// output shows for its key as a downstream reader sees it: the highest
// count seen, one effect per unit. A key counted once shows 1; a record
// counted twice by the task's state store shows 2, whatever the number of
// output records.
var SinkCount sim.SinkID

// StreamsTask is a Kafka Streams stream task running
// `input.groupByKey().count().toStream().to(output)`: for each input
// record it adds one to its key's count in a local state store and
// writes the new count to the output topic. The store is backed by a
// changelog topic; in this model the changelog and the output are one
// partition, since for a count() they carry the same (key, count) pairs.
// Each operation is its own key, so every count must end at 1.
//
// It is the read-process-write loop of Processor (whose protocol it runs)
// with a state store: after every (re)start, and after every aborted
// transaction, it wipes the store and restores it from the changelog —
// reading to the end with the Restore isolation level — before it
// processes anything. Under exactly_once_v2 (txn) the changelog record,
// the output and the consumed offsets are in one transaction and the
// restore reads read_committed: an aborted transaction's count is not
// restored, and the reprocessed record counts once. Under at_least_once
// (alo) the changelog is written before the offsets are committed: a crash
// in between restores the count and processes the record again, which
// counts it twice.
//
// With SideEffect, process() also calls an external system (API) for
// every record, before it produces the record's output: the call is not
// part of any Kafka transaction, and a replay repeats it.
type StreamsTask struct {
	*Processor
	Restore    int64 // readCommitted or readUncommitted
	API        sim.NodeID
	SideEffect bool
}

// The task's tables, after the processor's two.
const (
	tsStore     sim.TableID = iota + 2 // key (operation) → {State: 1, Value: count}: the local state store
	tsRestoring                        // row 1: {Value: next changelog offset to restore}
)

// kpRestore is the task's own phase: restoring the store (answer: record).
const kpRestore int32 = 100

// tsCounted is the state of a store row.
const tsCounted int32 = 1

func streamsTaskTables() []sim.TableSpec {
	return append(kafkaProcessorTables(),
		sim.TableSpec{Name: "state-store", Traced: true, States: []string{"", "COUNT"}},
		sim.TableSpec{Name: "restoring"})
}

// countOf is the store's count of op's key.
func (t *StreamsTask) countOf(ctx *sim.Context, op sim.OpID) int32 {
	r, _ := ctx.Get(tsStore, int64(op), op)
	return int32(r.Value)
}

// Receive restores the store once the committed position is known,
// counts each input record as it is processed (and calls the external
// system), and leaves the rest of the loop to the processor.
func (t *StreamsTask) Receive(ctx *sim.Context, m sim.Message) {
	r := t.run(ctx)
	switch m.Kind {
	case MsgOffsets:
		a := decodeOffsets(m)
		if r.Phase == kpOffsets && int64(m.Attempt) == r.Corr && a.Err == 0 {
			r.Position = max(a.Position, 1)
			t.put(ctx, kpRun, r.encode())
			t.restore(ctx)
			return
		}
	case MsgRecord:
		rec := decodeRecord(m)
		if r.Phase == kpRestore {
			t.restored(ctx, rec)
			return
		}
		if r.Phase == kpFetch && rec.Topic == topicInput && rec.Offset == r.Position {
			count := t.countOf(ctx, rec.Op) + 1
			ctx.Put(tsStore, int64(rec.Op), rec.Op, sim.Record{State: tsCounted, Value: int64(count)})
			if t.SideEffect {
				ctx.Send(t.API, DBWrite{Op: rec.Op, Attempt: rec.Delivery, Row: int64(rec.Op)}.Encode())
			}
		}
	}
	t.Processor.Receive(ctx, m)
}

// Timer repeats an unanswered restore fetch; every other timer is the
// processor's.
func (t *StreamsTask) Timer(ctx *sim.Context, tm sim.Timer) {
	r := t.run(ctx)
	if r.Phase == kpRestore {
		if tm.Kind == TimerTimeout && tm.Key == r.Corr {
			t.restoreFetch(ctx)
		}
		return
	}
	t.Processor.Timer(ctx, tm)
}

// restore wipes the store and reads the changelog from its start.
func (t *StreamsTask) restore(ctx *sim.Context) {
	rows := ctx.Rows(tsStore)
	keys := make([]int64, 0, rows.Len())
	for i := 0; i < rows.Len(); i++ {
		k, _ := rows.At(i)
		keys = append(keys, k)
	}
	for _, k := range keys {
		ctx.Delete(tsStore, k, sim.OpID(k))
	}
	ctx.Put(tsRestoring, 1, 0, sim.Record{Value: 1})
	t.restoreFetch(ctx)
}

// restoreFetch asks for the next changelog record, or the end.
func (t *StreamsTask) restoreFetch(ctx *sim.Context) {
	pos, _ := ctx.Get(tsRestoring, 1, 0)
	token := t.wait(ctx, kpRestore)
	ctx.Send(t.Broker, fetch{Position: pos.Value, Topic: topicOutput, Isolation: t.Restore, NoWait: true}.encode())
	ctx.After(t.Timeout, sim.Timer{Kind: TimerTimeout, Key: token})
}

// restored applies one changelog record (the last value of a key wins)
// and asks for the next; at the end of the changelog the loop begins.
func (t *StreamsTask) restored(ctx *sim.Context, rec record) {
	pos, _ := ctx.Get(tsRestoring, 1, 0)
	switch {
	case rec.Topic != topicOutput:
	case rec.Op == 0 && rec.Offset == pos.Value:
		t.wait(ctx, kpOffsets) // a phase of the loop again: the restore's timeout is void
		t.begin(ctx)
	case rec.Op != 0 && rec.Offset >= pos.Value:
		ctx.Put(tsStore, int64(rec.Op), rec.Op, sim.Record{State: tsCounted, Value: rec.Count})
		ctx.Put(tsRestoring, 1, 0, sim.Record{Value: rec.Offset + 1})
		t.restoreFetch(ctx)
	}
}

// buildStreamstask builds a kafka-streams-task node from its options, each declared where it is read.
func buildStreamstask(a *roles.Args) (sim.Node, []sim.TableSpec) {
	t := &StreamsTask{Processor: &Processor{
		Broker:      a.Node("broker", "the partition leader (input, output and changelog, offsets)"),
		Coordinator: txnCoordinator(a),
		Batch:       a.Int("batch", 2, 1, 100, "input records per transaction (per offset commit under alo): commit.interval.ms, in records"),
		Timeout:     txnTimeout(a),
	}}
	t.CountOf = t.countOf
	t.Restore = isolation(a, "restore",
		"the isolation level the state store is restored with from its changelog: read_committed (Kafka Streams under exactly_once_v2) skips aborted transactions; read_uncommitted restores them")
	api, ok := a.OptionalNode("api", "an external system process() calls for every record")
	t.API, t.SideEffect = api, a.Enum("side-effect", "none", []string{"none", "in-process"},
		"in-process: process() calls the api for every record, before the output is produced — outside any Kafka transaction") == "in-process"
	if t.SideEffect && !ok {
		a.Fail("side-effect", "side-effect: in-process needs option api (the external system to call)")
	}
	return t, streamsTaskTables()
}
