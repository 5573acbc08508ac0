// Package queue is the family of roles around a message log: producers,
// brokers and consumers; SET NX dedup in front of an effect, a
// replaying broker, the transactional outbox and its relay, and the
// consumers that are idempotent by design (set instead of increment, upsert
// on a natural key, recomputed aggregates).
package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Message kinds, sinks and crash points of the queue family: a producer,
// a broker with offsets and a consumer; SET NX dedup, expiring dedup
// entries, the transactional outbox, and the idempotent-by-design consumers (set
// instead of increment, upsert on a natural key, recomputed aggregates).
var (
	MsgPublish    sim.MsgKind // producer → broker
	MsgPublishAck sim.MsgKind // broker → producer
	MsgDeliver    sim.MsgKind // broker → consumer: record at an offset
	MsgCommit     sim.MsgKind // consumer → broker: offset processed (the ack)

	MsgOutboxNotify sim.MsgKind // service → relay: a new outbox row is committed (LISTEN/NOTIFY)
	MsgOutboxFetch  sim.MsgKind // relay → service: the outbox row after my position, please
	MsgOutboxRow    sim.MsgKind // service → relay: that row, or 404 when there is none yet
	MsgReadInput    sim.MsgKind // aggregator → input log: the record at an offset, please
	MsgInputRecord  sim.MsgKind // input log → aggregator: the record, or 404 past the end

	SinkBilling      sim.SinkID // the billing rows a consumer writes
	SinkLogRecords   sim.SinkID // records appended to a broker's log
	SinkOrders       sim.SinkID // committed domain rows of an order service
	SinkBalances     sim.SinkID // changes of a booking's paid total
	SinkOrderLines   sim.SinkID // rows of an order-lines table
	SinkHourlyTotals sim.SinkID // an input event counted in an hourly-totals table

	PointAfterCommit      sim.PointID // offset committed, record not yet processed (at-most-once)
	PointAfterEffect      sim.PointID // record processed, offset not yet committed
	PointBeforeMark       sim.PointID // effect applied, dedup key not yet written ("check, call, mark")
	PointAfterSend        sim.PointID // a producer sent a record, its ack not yet received
	PointAfterOffsetWrite sim.PointID // a broker recorded a consumer's commit; losing its disk here means a restore
	PointAfterPublish     sim.PointID // a record is published, the local write that goes with it is not yet done
	PointAfterDBCommit    sim.PointID // a domain change is committed, its event not yet published
	PointAfterEmit        sim.PointID // an hourly total is written, the job has not finished
)

// Status codes of the log protocols (besides the HTTP-like ones).
const (
	statusEndOfLog = roles.StatusNotFound // a fetch past the end of a log, or no outbox row yet
)

// workload is the schedule of a node that starts the operations itself (a
// producer, an order service). Table is a durable table where the node
// notes every operation it has started, so that a restart neither repeats
// nor forgets one.
type workload struct {
	Table    sim.TableID
	Epoch    sim.TableID // durable; row 0 is written at the first boot
	Interval sim.Time
}

// schedule sets a start-op timer for every operation not started yet, at
// its planned time (op-1)·Interval after the first boot, or now if that
// has passed. At the first boot that is the whole workload; after a crash,
// the operations whose timers died with the incarnation.
//
// The plan is measured from the first boot, kept in a durable row, never
// from absolute time: the row's age is part of the world's fingerprint,
// absolute time is not, so two worlds that differ only by a shift in time
// still behave alike.
func (w workload) schedule(ctx *sim.Context) {
	epoch, ok := ctx.Rows(w.Epoch).Get(0)
	if !ok {
		ctx.Put(w.Epoch, 0, 0, sim.Record{State: 1})
		epoch, _ = ctx.Rows(w.Epoch).Get(0)
	}
	elapsed := ctx.Now() - epoch.At
	for op := 1; op <= ctx.Ops(); op++ {
		if _, started := ctx.Rows(w.Table).Get(int64(op)); started {
			continue
		}
		at := sim.Time(op-1) * w.Interval
		ctx.After(max(0, at-elapsed), sim.Timer{Kind: roles.TimerStartOp, Op: sim.OpID(op)})
	}
}

// transportDup reports whether the message named key (an offset, or an
// operation and attempt) was handled already, remembering it otherwise: the
// at-most-once transport's suppression of network copies, as TCP would
// give.
func transportDup(ctx *sim.Context, table sim.TableID, key int64, op sim.OpID) bool {
	if _, dup := ctx.Get(table, key, op); dup {
		return true
	}
	ctx.Put(table, key, op, sim.Record{})
	return false
}

// processedRow is a consumer's dedup row for a processed operation: State
// = roles.KeyCompleted, nothing else (the row's presence is the fact; At
// dates it for the TTL).
func processedRow() sim.Record { return sim.Record{State: roles.KeyCompleted} }

// opAttemptKey names one send of an operation (op, attempt): the key of the
// brokers' transport dedup tables (seen). Ranges: roles.TupleKey's, with
// roles.AttemptDigits for attempt.
func opAttemptKey(op sim.OpID, attempt int32) int64 {
	return roles.TupleKey(int64(op), int64(attempt), roles.AttemptDigits)
}
