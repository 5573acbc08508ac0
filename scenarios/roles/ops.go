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

// RetryDue says whether retry timer t finds its operation still pending
// in the ops table at the attempt the timer was armed for: only then is
// the operation sent again. The ops tables' rows hold the state in State
// and the attempt in Value.
func RetryDue(ctx *sim.Context, ops sim.TableID, t sim.Timer) bool {
	r, ok := ctx.Get(ops, int64(t.Op), t.Op)
	return ok && r.State == OpPending && int32(r.Value) == t.Attempt
}

// RenameOpsRow renames, for a sim.OpRenamer, a row of a node whose ops
// table (and only that) is keyed by the operation: the key of an ops
// row is renamed, every other row is kept as it is.
func RenameOpsRow(t, ops sim.TableID, key int64, r sim.Record, to func(sim.OpID) sim.OpID) (int64, sim.Record) {
	if t == ops {
		key = int64(to(sim.OpID(key)))
	}
	return key, r
}

// ArmRetry arms the retry timer of attempt attempt of operation op, to
// fire after timeout — except under at-most-once, which never retries.
func ArmRetry(ctx *sim.Context, timeout sim.Time, op sim.OpID, attempt int32) {
	if ctx.Semantics() != sim.AtMostOnce {
		ctx.After(timeout, sim.Timer{Kind: TimerRetry, Op: op, Attempt: attempt})
	}
}

// OpTimer runs the timers of a node that starts operations and retries
// them until answered: TimerStartOp sends an operation's first attempt,
// TimerRetry the next one while RetryDue says the operation still waits
// for it. Other timers are ignored.
func OpTimer(ctx *sim.Context, ops sim.TableID, t sim.Timer, send func(ctx *sim.Context, op sim.OpID, attempt int32)) {
	switch t.Kind {
	case TimerStartOp:
		send(ctx, t.Op, 1)
	case TimerRetry:
		if RetryDue(ctx, ops, t) {
			send(ctx, t.Op, t.Attempt+1)
		}
	}
}
