package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Status codes of a JetStream publish ack (a view of the PubAck's
// duplicate flag): a new message stored, or a duplicate inside the
// stream's duplicate window answered with the sequence it was stored at.
const (
	statusStored    = roles.StatusCreated // PubAck{Seq: new}: stored
	statusDuplicate = roles.StatusOK      // PubAck{Seq: first, Duplicate: true}: not stored again
)

// JetStream is one NATS JetStream stream with one durable push consumer
// (explicit acks), as nats-server runs it.
//
//   - at-least-once: the publisher sets no Nats-Msg-Id header, so every
//     publish — a retry after a lost publish ack too — is stored as a new
//     message with a new stream sequence;
//   - idempotent: the publisher sets Nats-Msg-Id (the order id). A publish
//     whose id the stream stored less than DuplicateWindow ago is not
//     stored again: the publish ack says duplicate, with the sequence of
//     the first copy. The window is measured from the first copy's store,
//     and a duplicate does not extend it; after it the id is forgotten and
//     a retry is stored as a second message.
//
// Every stored message is delivered and redelivered every AckWait until it
// is acked. An ack names the message by its stream sequence, not by the
// delivery it answers: the late ack of a first delivery that arrives after
// AckWait has expired and the message was redelivered is accepted and acks
// the message — the redelivery is already on its way to the consumer, and
// nothing tells the consumer so (Pub/Sub's per-delivery ack ids fail such
// an ack instead). Every ack is answered (AckSync): 200.
type JetStream struct {
	waiting
	Consumer        sim.NodeID
	AckWait         sim.Time
	DuplicateWindow sim.Time
}

const (
	jetstreamLog    sim.TableID = iota // stream sequence → logRow (Deliveries = the delivery count)
	jetstreamMsgIDs                    // Nats-Msg-Id → the stream sequence of its first copy (At: when it was stored)
)

// Receive stores a publish (or answers it as a duplicate), or takes an ack.
func (s *JetStream) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPublish:
		s.publish(ctx, m)
	case MsgPubSubAck:
		seq := decodePubSubAck(m).MessageID
		rec, ok := ctx.Get(jetstreamLog, seq, m.Op)
		if !ok {
			return
		}
		if r := decodeLogRow(rec); r.State != recordAcked {
			// Whichever delivery this ack answers, it acks the message.
			r.State = recordAcked
			ctx.Put(jetstreamLog, seq, m.Op, r.encode())
		}
		ctx.Send(m.From, pubsubAck{MessageID: seq, Status: roles.StatusOK}.encode(envelope{Kind: MsgAckResponse, Op: m.Op, Attempt: m.Attempt}))
	}
}

// publish stores a message unless its Nats-Msg-Id is inside the duplicate
// window, and answers with the publish ack.
func (s *JetStream) publish(ctx *sim.Context, m sim.Message) {
	msgID := int64(m.Op) // Nats-Msg-Id: the order id (set under idempotent semantics only)
	withID := roles.Idempotent(ctx.Semantics())
	if withID {
		if r, seen := ctx.Get(jetstreamMsgIDs, msgID, m.Op); seen {
			if ctx.Now()-r.At < s.DuplicateWindow {
				ackPublish(ctx, &m, publishAck{Offset: r.Value, Status: statusDuplicate})
				return
			}
			ctx.Expire(jetstreamMsgIDs, msgID, m.Op) // the window has passed: the id is forgotten
		}
	}
	seq := int64(ctx.Rows(jetstreamLog).Len() + 1)
	ctx.Put(jetstreamLog, seq, m.Op, logRow{Op: m.Op, State: recordUnacked}.encode())
	if withID {
		ctx.Put(jetstreamMsgIDs, msgID, m.Op, sim.Record{State: 1, Value: seq})
	}
	ackPublish(ctx, &m, publishAck{Offset: seq, Status: statusStored})
	s.deliver(ctx, seq)
}

// deliver sends the message again (delivery count + 1) and starts AckWait.
func (s *JetStream) deliver(ctx *sim.Context, seq int64) {
	r, d := nextDelivery(ctx, jetstreamLog, seq)
	ctx.Send(s.Consumer, d)
	ctx.After(s.AckWait, redeliveryTimer(roles.TimerRedeliver, r, seq))
}

// Timer redelivers a message not acked within AckWait of its last delivery.
func (s *JetStream) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind == roles.TimerRedeliver && latestUnacked(ctx, jetstreamLog, t) {
		s.deliver(ctx, t.Key)
	}
}

// buildJetstream builds a jetstream node from its options, each declared where it is read.
func buildJetstream(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &JetStream{
		Consumer:        a.Node("consumer", "the push consumer messages are delivered to"),
		AckWait:         a.PositiveDuration("ack-wait", "30s", "the consumer's AckWait: how long a delivery waits for an ack before the message is delivered again (NATS default 30 s)"),
		DuplicateWindow: a.PositiveDuration("duplicate-window", "2m", "the stream's duplicate window: how long a stored Nats-Msg-Id makes a publish with the same id a duplicate (NATS default 2 min)"),
	}
	return s, []sim.TableSpec{
		{Name: "stream", Durable: true, Traced: true, AgeFree: true, States: []string{"UNACKED", "ACKED"}},
		{Name: "msg-ids", Durable: true, Traced: true, States: []string{"", "STORED"}},
	}
}
