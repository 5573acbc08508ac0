package queue

import "github.com/oncesim/once/sim"

// ackPublish answers publish m (to its sender, same operation and
// attempt) with a.
func ackPublish(ctx *sim.Context, m *sim.Message, a publishAck) {
	ctx.Send(m.From, a.encode(envelope{Kind: MsgPublishAck, Op: m.Op, Attempt: m.Attempt}))
}

// appendPublished appends r, the record of publish m, to log table t at
// the next offset and acknowledges the publish with that offset, which it
// returns.
func appendPublished(ctx *sim.Context, t sim.TableID, m *sim.Message, r sim.Record) int64 {
	offset := int64(ctx.Rows(t).Len() + 1)
	ctx.Put(t, offset, m.Op, r)
	ackPublish(ctx, m, publishAck{Offset: offset})
	return offset
}
