package queue

import "github.com/oncesim/once/sim"

// commitOf is the commit of offset that answers delivery m (same operation
// and attempt).
func commitOf(offset int64, m *sim.Message) sim.Message {
	return offsetCommit{Offset: offset}.encode(envelope{Kind: MsgCommit, Op: m.Op, Attempt: m.Attempt})
}

// commitDelivery commits delivery m's offset to broker.
func commitDelivery(ctx *sim.Context, broker sim.NodeID, m *sim.Message) {
	ctx.Send(broker, commitOf(decodeDelivery(*m).Offset, m))
}

// commitFirst is at-most-once's commit, then apply: a network copy of
// delivery m (its offset seen already) is dropped, otherwise the offset is
// committed to broker before the effect. It reports whether the consumer
// goes on to the effect: not a copy, and no crash right after the commit.
func commitFirst(ctx *sim.Context, seen sim.TableID, broker sim.NodeID, offset int64, m *sim.Message) bool {
	if transportDup(ctx, seen, offset, m.Op) {
		return false
	}
	ctx.Send(broker, commitOf(offset, m))
	return !ctx.CrashPoint(PointAfterCommit, m)
}
