package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// PubSubServer is the server side of one Google Cloud Pub/Sub
// subscription: it keeps the published messages, delivers each to the
// subscriber with an ack id, and redelivers it when its ack deadline
// expires without an ack.
//
//   - at-least-once (a plain subscription): every ack is taken as it comes
//     and not answered; a message whose ack did not arrive before its
//     deadline is delivered again;
//   - idempotent (exactly-once delivery enabled on the subscription): the
//     server does not redeliver a message after a successful ack, nor
//     while a delivery is outstanding (before its ack deadline); each
//     delivery has a new ack id and only the latest one acks the message —
//     an ack with an older one fails; and every ack is answered
//     (ack-with-response in the client libraries): 200 acked, or 410 the
//     ack id is gone. Once the deadline expires the message IS delivered
//     again, with a new ack id, even within one streaming session.
//
// The ack id is the delivery count (the envelope's Attempt); the message
// id is the log offset.
type PubSubServer struct {
	waiting
	Subscriber  sim.NodeID
	AckDeadline sim.Time
}

const pubsubLog sim.TableID = 0 // message id → logRow (Deliveries = the current ack id)

// exactlyOnce reports whether the subscription has exactly-once delivery.
func exactlyOnce(ctx *sim.Context) bool { return roles.Idempotent(ctx.Semantics()) }

// Receive stores a published message, or takes an ack.
func (s *PubSubServer) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPublish:
		id := appendPublished(ctx, pubsubLog, &m, logRow{Op: m.Op, State: recordUnacked}.encode())
		s.deliver(ctx, id)
	case MsgPubSubAck:
		s.ack(ctx, m)
	}
}

// ack takes an ack: under exactly-once delivery only with the message's
// latest ack id, and answered either way.
func (s *PubSubServer) ack(ctx *sim.Context, m sim.Message) {
	id := decodePubSubAck(m).MessageID
	rec, ok := ctx.Get(pubsubLog, id, m.Op)
	if !ok {
		return
	}
	r := decodeLogRow(rec)
	status := int32(roles.StatusOK)
	switch {
	case r.State == recordAcked:
		// Acked already (this ack's earlier copy got through, its answer did not).
	case exactlyOnce(ctx) && m.Attempt != r.Deliveries:
		status = statusAckIDGone // redelivered since: this ack id no longer acks the message
	default:
		r.State = recordAcked
		ctx.Put(pubsubLog, id, m.Op, r.encode())
	}
	if exactlyOnce(ctx) {
		ctx.Send(m.From, pubsubAck{MessageID: id, Status: status}.encode(envelope{Kind: MsgAckResponse, Op: m.Op, Attempt: m.Attempt}))
	}
}

// deliver sends the message with a new ack id and starts its deadline.
func (s *PubSubServer) deliver(ctx *sim.Context, id int64) {
	r, d := nextDelivery(ctx, pubsubLog, id)
	ctx.Send(s.Subscriber, d)
	ctx.After(s.AckDeadline, redeliveryTimer(TimerAckExpiry, r, id))
}

// Timer redelivers a message whose delivery's ack deadline expired
// without an ack: the ack id of that delivery stops working.
func (s *PubSubServer) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind == TimerAckExpiry && latestUnacked(ctx, pubsubLog, t) {
		s.deliver(ctx, t.Key)
	}
}

// buildPubsubserver builds a pubsub-server node from its options, each declared where it is read.
func buildPubsubserver(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &PubSubServer{
		Subscriber:  a.Node("subscriber", "where messages are delivered"),
		AckDeadline: a.PositiveDuration("ack-deadline", "10s", "how long a delivery stays outstanding without an ack before the message is delivered again"),
	}
	return s, []sim.TableSpec{{Name: "messages", Durable: true, AgeFree: true}}
}
