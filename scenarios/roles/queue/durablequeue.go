package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Crash points of the broker-crash lesson, in a file of their own so the
// lesson does not touch the family's shared kinds.
var (
	PointBeforePersist sim.PointID // a broker received a publish, not yet written to disk
	PointAfterPersist  sim.PointID // a broker wrote a publish to disk, its publisher confirm not yet sent
)

// Message states of a durable queue.
const (
	durableReady   int32 = iota // on disk, waiting for a delivery
	durableUnacked              // delivered, its ack not yet received
	durableAcked                // acknowledged (or delivered with auto-ack): gone
)

// DurableQueue is a RabbitMQ classic queue declared durable, holding
// persistent messages, with publisher confirms, delivering to one
// consumer with a prefetch of 1 (basic.qos 1): a publish is written to
// disk, then confirmed (publish-ack); the first ready message is
// delivered once no delivery is unacked, with manual acks — except under
// at-most-once, where the consumer subscribes with auto-ack and the
// broker delivers every message at once and forgets it as it leaves.
//
// The broker itself crashes (a node crash: SIGKILL, a power loss) at two
// points of a publish: before the message is on disk — it is lost, and
// only a publisher that waits for its confirm sends it again — or after,
// before its confirm — it survives, and the publisher's retry stores a
// second copy. Restarted on its disk, the broker recovers every message
// not acknowledged and delivers each again with Redelivered=true: the
// ones delivered before the crash and not acked, and the ones never
// delivered at all (RabbitMQ 3.x marks every recovered message
// redelivered: it cannot know which were).
type DurableQueue struct {
	Consumer sim.NodeID
}

const durableMessages sim.TableID = 0 // message number → durableMessage

// durableMessage is one message of the queue. Slots: Value = the
// operation; State = durableReady, durableUnacked or durableAcked; Aux =
// deliveries so far; Status = 1 when the broker marks it redelivered.
//
//viewgen:record
type durableMessage struct {
	Op          sim.OpID `slot:"Value"`
	State       int32    `slot:"State"`
	Deliveries  int32    `slot:"Aux"`
	Redelivered bool     `slot:"Status"`
}

// Start recovers the queue from disk: on a restart every message not
// acknowledged is marked redelivered and delivered again (at the first
// boot the queue is empty).
func (q *DurableQueue) Start(ctx *sim.Context) {
	rows := ctx.Rows(durableMessages)
	var ids []int64
	for i := 0; i < rows.Len(); i++ {
		if id, r := rows.At(i); r.State != durableAcked {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		r, _ := ctx.Get(durableMessages, id, 0)
		m := decodeDurableMessage(r)
		m.State, m.Redelivered = durableReady, true
		ctx.Put(durableMessages, id, m.Op, m.encode())
	}
	q.next(ctx)
}

// next delivers the first ready message unless one is unacked (the
// consumer's prefetch is 1); with auto-ack every ready message at once.
func (q *DurableQueue) next(ctx *sim.Context) {
	rows := ctx.Rows(durableMessages)
	var ready []int64
	for i := 0; i < rows.Len(); i++ {
		id, r := rows.At(i)
		switch r.State {
		case durableUnacked:
			return
		case durableReady:
			ready = append(ready, id)
		}
	}
	if len(ready) == 0 {
		return
	}
	if ctx.Semantics() != sim.AtMostOnce {
		ready = ready[:1]
	}
	for _, id := range ready {
		q.deliver(ctx, id)
	}
}

// Timer is unused.
func (q *DurableQueue) Timer(*sim.Context, sim.Timer) {}

// Receive stores and confirms a publish, or takes an ack.
func (q *DurableQueue) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPublish:
		if ctx.CrashPoint(PointBeforePersist, &m) {
			return
		}
		id := int64(ctx.Rows(durableMessages).Len() + 1)
		ctx.Put(durableMessages, id, m.Op, durableMessage{Op: m.Op, State: durableReady}.encode())
		if ctx.CrashPoint(PointAfterPersist, &m) {
			return
		}
		if ctx.Semantics() != sim.AtMostOnce { // the publisher asked for confirms
			ackPublish(ctx, &m, publishAck{Offset: id})
		}
		q.next(ctx)
	case MsgCommit:
		id := decodeOffsetCommit(m).Offset
		if r, ok := ctx.Get(durableMessages, id, m.Op); ok {
			if d := decodeDurableMessage(r); d.State == durableUnacked {
				d.State = durableAcked
				ctx.Put(durableMessages, id, m.Op, d.encode())
				q.next(ctx)
			}
		}
	}
}

// deliver sends message id to the consumer, its Redelivered flag in the
// delivery's value; under auto-ack it is gone as it leaves.
func (q *DurableQueue) deliver(ctx *sim.Context, id int64) {
	r, _ := ctx.Get(durableMessages, id, 0)
	d := decodeDurableMessage(r)
	d.Deliveries++
	d.State = durableUnacked
	if ctx.Semantics() == sim.AtMostOnce {
		d.State = durableAcked
	}
	ctx.Put(durableMessages, id, d.Op, d.encode())
	out := delivery{Offset: id, Record: roles.Payload(d.Op)}.encode(envelope{Kind: MsgDeliver, Op: d.Op, Attempt: d.Deliveries})
	if d.Redelivered {
		out.Value = 1
	}
	ctx.Send(q.Consumer, out)
}

// DurableConsumer consumes a durable queue and bills each message:
//
//   - at-most-once: auto-ack, bill;
//   - at-least-once: bill, then ack; with SkipRedelivered a delivery
//     marked Redelivered=true is acked and not billed — reading the flag
//     as "processed before", which after a broker crash it does not mean;
//   - idempotent: a dedup row keyed by the operation, written with the
//     billing row in one local transaction; a delivery whose row exists
//     is acked, not billed.
type DurableConsumer struct {
	passive
	Broker          sim.NodeID
	SkipRedelivered bool
}

const durableConsumerDedup sim.TableID = 0 // operation → processed

// Receive bills one delivery and acks it.
func (c *DurableConsumer) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgDeliver {
		return
	}
	d := decodeDelivery(m)
	switch ctx.Semantics() {
	case sim.AtMostOnce:
		ctx.Effect(SinkBilling, m.Op, d.Record) // auto-ack: nothing to ack
		return
	case sim.AtLeastOnce:
		if !(c.SkipRedelivered && m.Value != 0) {
			ctx.Effect(SinkBilling, m.Op, d.Record)
		}
	default:
		if _, done := ctx.Get(durableConsumerDedup, int64(m.Op), m.Op); !done {
			// One local transaction: the dedup row and the billing row commit together.
			ctx.Put(durableConsumerDedup, int64(m.Op), m.Op, processedRow())
			ctx.Effect(SinkBilling, m.Op, d.Record)
		}
	}
	ctx.Send(c.Broker, commitOf(d.Offset, &m))
}

func registerDurablequeue(c *roles.Catalog) {
	c.Register(&roles.Role{
		Name: "durable-queue",
		Doc: "a RabbitMQ durable queue of persistent messages with publisher confirms; the broker crashes before or after writing a publish to disk, " +
			"and restarted it delivers every message not acked again with Redelivered=true, never-delivered ones too",
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &DurableQueue{Consumer: a.Node("consumer", "where messages are delivered")}, []sim.TableSpec{
				{Name: "messages", Durable: true, Traced: true, AgeFree: true, States: []string{"ready", "unacked", "acked"}},
			}
		},
	})
	c.Register(&roles.Role{
		Name: "durable-consumer",
		Doc:  "bills each message of a durable queue, then acks it (auto-ack under at-most-once); under idempotent semantics a dedup row written with the bill",
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			c := &DurableConsumer{
				Broker: a.Node("broker", "where acks go"),
				SkipRedelivered: a.Enum("redelivered", "process", []string{"process", "skip"},
					"what an at-least-once consumer does with a delivery marked Redelivered=true: process it, or ack it unprocessed (reading the flag as \"processed before\")") == "skip",
			}
			return c, []sim.TableSpec{{Name: "processed", Durable: true, Traced: true, AgeFree: true, States: roles.KeyStates}}
		},
	})
}
