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
