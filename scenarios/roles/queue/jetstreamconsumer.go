package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// JetStreamConsumer ships an order for each message a JetStream push
// consumer delivers, then acks it (AckSync: the stream answers every ack).
//
// Without Dedup every delivery is shipped: a second stored copy (a publish
// retried after the duplicate window) and a redelivery after AckWait (a
// crash, or a pause past AckWait before the ack) alike. Its late ack, when
// it comes, is accepted — the stream acks by sequence — so the consumer is
// never told that the message is coming again.
//
// With Dedup the consumer keeps a durable record of the Nats-Msg-Id
// headers it has processed, written with the shipment in one local
// transaction; a delivery whose id is recorded is acked, not shipped. The
// header is set by the publisher under idempotent semantics only: under
// at-least-once there is no id to record.
type JetStreamConsumer struct {
	passive
	Stream sim.NodeID
	Dedup  bool
}

const jetstreamProcessed sim.TableID = 0 // Nats-Msg-Id → processed (the application's own durable record)

// Receive ships one delivered order unless its Nats-Msg-Id is recorded;
// an ack's answer needs nothing (it is 200 whichever delivery it answers).
func (c *JetStreamConsumer) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgDeliver {
		return
	}
	d := decodeDelivery(m)
	if c.Dedup && roles.Idempotent(ctx.Semantics()) {
		msgID := int64(m.Op)
		if _, done := ctx.Get(jetstreamProcessed, msgID, m.Op); done {
			c.ack(ctx, m) // processed already (a redelivery, or a second stored copy): ack, ship nothing
			return
		}
		// One local transaction: the record and the shipment commit together.
		ctx.Put(jetstreamProcessed, msgID, m.Op, processedRow())
	}
	ctx.Effect(SinkOrdersShipped, m.Op, d.Record)
	if ctx.CrashPoint(PointAfterEffect, &m) {
		return
	}
	c.ack(ctx, m)
}

// ack acks the delivery: the stream sequence is all the ack names.
func (c *JetStreamConsumer) ack(ctx *sim.Context, m sim.Message) {
	ctx.Send(c.Stream, pubsubAck{MessageID: decodeDelivery(m).Offset}.encode(envelope{Kind: MsgPubSubAck, Op: m.Op, Attempt: m.Attempt}))
}

// buildJetstreamconsumer builds a jetstream-consumer node from its options, each declared where it is read.
func buildJetstreamconsumer(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &JetStreamConsumer{
		Stream: a.Node("stream", "the stream, where acks go"),
		Dedup: a.Enum("dedup", "none", []string{"none", "msg-id"},
			"none, or msg-id: a durable record of processed Nats-Msg-Id headers written with the shipment") == "msg-id",
	}
	return c, []sim.TableSpec{{Name: "processed", Durable: true, Traced: true, AgeFree: true, States: roles.KeyStates}}
}
