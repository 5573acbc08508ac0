package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// SQSFifo is an Amazon SQS FIFO queue. A SendMessage carries a
// MessageDeduplicationId, or none when the queue has content-based
// deduplication enabled, which then takes the SHA-256 of the message body
// (the body only: not the attributes, not the group id) as the id. A send
// whose id was accepted less than Window ago — 5 minutes, fixed by SQS — is
// accepted and answered as usual, and not delivered: even if the first
// message was received and deleted meanwhile. After the window the same
// id is a new message.
//
// Accepted messages are delivered to the consumer and delivered again
// every Visibility until the consumer deletes them (MsgCommit: the
// delivery's offset), as the Broker does. The body's hash is modelled by
// the body itself: two bodies collide exactly when they are equal.
type SQSFifo struct {
	Broker
	Window sim.Time
}

const (
	sqsDedupIDs      sim.TableID = iota + brokerSeen + 1 // MessageDeduplicationId → the offset it was accepted at (At: when)
	sqsContentHashes                                     // SHA-256(body) → the offset it was accepted at (At: when)
	sqsBodies                                            // offset → the message body (Value)
)

// Receive accepts a SendMessage (delivering it unless it is a duplicate
// inside the window), or a delete.
func (q *SQSFifo) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPublish {
		q.Broker.Receive(ctx, m)
		return
	}
	send := decodeSendMessage(m)
	table, key := sqsDedupIDs, send.DedupID
	if send.DedupID == 0 {
		table, key = sqsContentHashes, send.Body // content-based: the body's hash is the id
	}
	if r, seen := ctx.Get(table, key, m.Op); seen {
		if ctx.Now()-r.At < q.Window {
			// Accepted, answered like the first, not delivered.
			ackPublish(ctx, &m, publishAck{Offset: r.Value, Status: roles.StatusOK})
			return
		}
		ctx.Expire(table, key, m.Op) // the 5-minute interval is over: the id is new again
	}
	offset := int64(ctx.Rows(brokerLog).Len() + 1)
	ctx.Put(brokerLog, offset, m.Op, logRow{Op: m.Op, State: recordUnacked}.encode())
	ctx.Put(sqsBodies, offset, m.Op, sim.Record{Value: send.Body})
	ctx.Put(table, key, m.Op, sim.Record{State: 1, Value: offset})
	ackPublish(ctx, &m, publishAck{Offset: offset, Status: roles.StatusOK})
	q.deliverBody(ctx, offset)
}

// deliverBody delivers the message at offset with its body, and starts its
// visibility timeout.
func (q *SQSFifo) deliverBody(ctx *sim.Context, offset int64) {
	body, _ := ctx.Get(sqsBodies, offset, 0)
	rec, _ := ctx.Get(brokerLog, offset, 0)
	r := decodeLogRow(rec)
	r.Deliveries++
	ctx.Put(brokerLog, offset, r.Op, r.encode())
	ctx.Send(q.Consumer, delivery{Offset: offset, Record: body.Value}.encode(envelope{Kind: MsgDeliver, Op: r.Op, Attempt: r.Deliveries}))
	ctx.After(q.Visibility, redeliveryTimer(roles.TimerRedeliver, r, offset))
}

// Timer redelivers a message not deleted within its visibility timeout.
func (q *SQSFifo) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != roles.TimerRedeliver {
		return
	}
	if r, ok := ctx.Get(brokerLog, t.Key, t.Op); ok && decodeLogRow(r).State != recordAcked {
		q.deliverBody(ctx, t.Key)
	}
}

// buildSqsfifo builds a sqs-fifo node from its options, each declared where it is read.
func buildSqsfifo(a *roles.Args) (sim.Node, []sim.TableSpec) {
	q := &SQSFifo{
		Broker: Broker{
			Consumer:   a.Node("consumer", "where messages are delivered"),
			Visibility: a.PositiveDuration("visibility", "30s", "the visibility timeout: how long a received message stays invisible before it is delivered again (SQS default 30 s)"),
		},
		Window: a.PositiveDuration("dedup-interval", "5m", "the deduplication interval (SQS: 5 minutes, not configurable)"),
	}
	return q, []sim.TableSpec{
		{Name: "log", Durable: true, AgeFree: true},
		{Name: "seen", Durable: true, AgeFree: true},
		{Name: "dedup-ids", Durable: true, Traced: true, States: []string{"", "ACCEPTED"}},
		{Name: "content-hashes", Durable: true, Traced: true, States: []string{"", "ACCEPTED"}},
		{Name: "bodies", Durable: true, AgeFree: true},
	}
}
