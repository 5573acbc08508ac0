package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// PubSubSubscriber ships an order for each delivered message and acks it,
// as a Google Cloud Pub/Sub subscriber does.
//
//   - at-least-once (a plain subscription): ship, then ack, and forget the
//     ack; an ack lost or a crash in between brings a redelivery after
//     the ack deadline, shipped again;
//   - idempotent (exactly-once delivery enabled): ship, then ack with
//     response (the client libraries' ackWithResponse): the ack is sent
//     again every AckRetry until the server answers, and the answer says
//     whether it acked the message (200) or the ack id is gone because
//     the message was redelivered (410). The subscriber then knows — but
//     the order is shipped already, and the redelivery ships it again.
//     The server's guarantee covers deliveries, not the subscriber's
//     effects: a crash, or a pause past the ack deadline, after the
//     shipment and before the ack still ships twice.
//
// With Record=durable the subscriber keeps its own processing record: the
// message id is written with the shipment, in one local transaction, and a
// delivery of a recorded id is acked without a second shipment. That
// record is what makes the effect exactly once, under either
// subscription.
type PubSubSubscriber struct {
	waiting
	Server   sim.NodeID
	Record   bool
	AckRetry sim.Time
}

const (
	subscriberRecord sim.TableID = iota // message id → processed (the application's own durable record)
	subscriberAcks                      // (message id, ack id) → the ack in flight and its answer (volatile)
)

// Receive ships one delivered order (unless the record has its message
// id), or takes the answer to an ack.
func (s *PubSubSubscriber) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgDeliver:
		s.deliver(ctx, m)
	case MsgAckResponse:
		a := decodePubSubAck(m)
		key := ackKey(a.MessageID, m.Attempt)
		if r, ok := ctx.Get(subscriberAcks, key, m.Op); !ok || r.State != ackSent {
			return // the answer to an ack already answered, or sent by another incarnation
		}
		state := ackDone
		if a.Status != roles.StatusOK {
			state = ackFailed // the message was redelivered: this subscriber knows it sees it again
		}
		ctx.Put(subscriberAcks, key, m.Op, sim.Record{State: state, Value: a.MessageID})
	}
}

func (s *PubSubSubscriber) deliver(ctx *sim.Context, m sim.Message) {
	d := decodeDelivery(m)
	if s.Record {
		if _, done := ctx.Get(subscriberRecord, d.Offset, m.Op); done {
			s.ack(ctx, m.Op, d.Offset, m.Attempt) // processed already: ack this delivery, ship nothing
			return
		}
		// One local transaction: the record and the shipment commit together.
		ctx.Put(subscriberRecord, d.Offset, m.Op, processedRow())
	}
	ctx.Effect(SinkOrdersShipped, m.Op, d.Record)
	if ctx.CrashPoint(PointAfterEffect, &m) {
		return
	}
	s.ack(ctx, m.Op, d.Offset, m.Attempt)
}

// ack acks one delivery: fire and forget on a plain subscription, with
// response (and resent until answered) under exactly-once delivery.
func (s *PubSubSubscriber) ack(ctx *sim.Context, op sim.OpID, id int64, ackID int32) {
	ctx.Send(s.Server, pubsubAck{MessageID: id}.encode(envelope{Kind: MsgPubSubAck, Op: op, Attempt: ackID}))
	if !exactlyOnce(ctx) {
		return
	}
	ctx.Put(subscriberAcks, ackKey(id, ackID), op, sim.Record{State: ackSent, Value: id})
	ctx.After(s.AckRetry, sim.Timer{Kind: TimerAckRetry, Op: op, Key: id, Attempt: ackID})
}

// Timer resends an ack still unanswered.
func (s *PubSubSubscriber) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerAckRetry {
		return
	}
	if r, ok := ctx.Get(subscriberAcks, ackKey(t.Key, t.Attempt), t.Op); ok && r.State == ackSent {
		s.ack(ctx, t.Op, t.Key, t.Attempt)
	}
}

// buildPubsubsubscriber builds a pubsub-subscriber node from its options, each declared where it is read.
func buildPubsubsubscriber(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &PubSubSubscriber{
		Server: a.Node("server", "the subscription's server, where acks go"),
		Record: a.Enum("record", "none", []string{"none", "durable"},
			"the subscriber's own processing record: none, or a durable table of processed message ids written with the shipment") == "durable",
		AckRetry: a.PositiveDuration("ack-retry", "1s", "how long it waits for an ack's answer before sending the ack again (exactly-once delivery)"),
	}
	return s, []sim.TableSpec{
		{Name: "record", Durable: true, Traced: true, AgeFree: true, States: roles.KeyStates},
		{Name: "acks", Traced: true, AgeFree: true, States: ackStates},
	}
}
