package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// PubSubSubscriber ships an order for each delivered message and acks it,
// as a Google Cloud Pub/Sub subscriber does.
//
//   - at-least-once (a plain subscription): ship, then ack; an ack lost or
//     a crash in between brings a redelivery, shipped again;
//   - idempotent (exactly-once delivery enabled): the subscriber's session
//     remembers every message id it received and acked; a redelivery of a
//     known id within the session is acked again and not shipped. The
//     session is the streaming pull's state: a volatile table, gone when
//     the subscriber crashes or restarts — the next session has never seen
//     the message, and a redelivery then is shipped again. With
//     Dedup=durable the application keeps its own processed ids in its
//     database, with the shipment, in one local transaction: that
//     survives the end of a session.
//
// The message id is the broker's offset: a publisher's retry is a new
// message with a new id, which exactly-once delivery does not catch.
type PubSubSubscriber struct {
	Broker sim.NodeID
}

const subscriberSession sim.TableID = 0 // message id → received (the session, or the application's table)

// Start opens a new session: the broker redelivers what was not acked.
func (s *PubSubSubscriber) Start(*sim.Context) {}

// Timer is unused.
func (s *PubSubSubscriber) Timer(*sim.Context, sim.Timer) {}

func (s *PubSubSubscriber) ack(ctx *sim.Context, m *sim.Message) {
	ctx.Send(s.Broker, offsetCommit{Offset: decodeDelivery(*m).Offset}.encode(envelope{Kind: MsgCommit, Op: m.Op, Attempt: m.Attempt}))
}

// Receive ships one delivered order, unless the session (or the
// application's table) has it already.
func (s *PubSubSubscriber) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgDeliver {
		return
	}
	d := decodeDelivery(m)
	if roles.Idempotent(ctx.Semantics()) {
		if _, seen := ctx.Get(subscriberSession, d.Offset, m.Op); seen {
			s.ack(ctx, &m) // a redelivery within the session: ack it, ship nothing
			return
		}
		ctx.Put(subscriberSession, d.Offset, m.Op, processedRow())
	}
	ctx.Effect(SinkOrdersShipped, m.Op, d.Record)
	if ctx.CrashPoint(PointAfterEffect, &m) {
		return
	}
	s.ack(ctx, &m)
}

var (
	pubsubSubscriberBroker = roles.Node("broker", "where acks go")
	pubsubSubscriberDedup  = roles.Enum("dedup", "session", []string{"session", "durable"}, "the received ids: the subscriber session's (lost when it ends), or the application's own durable table")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "pubsub-subscriber",
		Doc:     "a Pub/Sub subscriber: ships an order per message and acks it; with exactly-once delivery it ignores redeliveries within its session",
		Options: []roles.Option{pubsubSubscriberBroker, pubsubSubscriberDedup},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			s := &PubSubSubscriber{Broker: pubsubSubscriberBroker.Get(a)}
			durable := pubsubSubscriberDedup.Get(a) == "durable"
			return s, []sim.TableSpec{roles.StoreTable("session", durable, roles.KeyStates)}
		},
	})
}
