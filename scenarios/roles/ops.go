package roles

import "github.com/oncesim/once/sim"

// States of an operation in the ops table of a node that starts operations
// (a client, a producer).
const (
	OpPending int32 = iota + 1
	OpDone
)

// Payload is an operation's request body fingerprint: the amount to
// charge, the record to publish.
func Payload(op sim.OpID) int64 { return 100 + int64(op) }

// FinishOp marks operation op done in the ops table of the node that
// started it, if it is still pending there: its answer has arrived. The
// done row keeps nothing but its state: every client reads the other
// fields of a row (the attempt a retry timer must match, an issued key)
// only while it is pending, so forgetting them changes no behaviour, and
// finished operations that took different numbers of attempts are then
// one state to the explorer. (The ops tables are not traced.) The
// operation's retry timer (TimerRetry) is cancelled: it would find the
// operation done and do nothing, and a trace that shows "timer retry op-2
// #2" after op-2 finished reads as a bug.
func FinishOp(ctx *sim.Context, ops sim.TableID, op sim.OpID) {
	r, ok := ctx.Get(ops, int64(op), op)
	if ok && r.State == OpPending {
		ctx.Put(ops, int64(op), op, sim.Record{State: OpDone})
		ctx.CancelTimers(TimerRetry, op)
	}
}
