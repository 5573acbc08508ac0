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
// started it, if it is still pending there: its answer has arrived.
func FinishOp(ctx *sim.Context, ops sim.TableID, op sim.OpID) {
	r, ok := ctx.Get(ops, int64(op), op)
	if ok && r.State == OpPending {
		r.State = OpDone
		ctx.Put(ops, int64(op), op, r)
	}
}
