package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Log record states.
const (
	recordUnacked int32 = iota
	recordAcked
)

// Broker keeps a durable log with offsets and pushes each record to the
// consumer. Under at-most-once a record is delivered once and forgotten;
// otherwise it is redelivered every Visibility until the consumer commits
// its offset.
//
// With PrefetchOne, at-most-once delivery is RabbitMQ's with basic.qos 1
// and a consumer that acks before it works: one record at a time, the
// next after the commit (the ack); a record published while the consumer
// is down waits for it. The consumer's consume after a restart requeues
// the record delivered to the crashed consumer and never acked; a
// delivery not acked within Visibility is given up, never delivered again.
type Broker struct {
	waiting
	Consumer    sim.NodeID
	Visibility  sim.Time
	PrefetchOne bool
}

const (
	brokerLog  sim.TableID = iota // offset → logRow
	brokerSeen                    // (op, attempt) publishes seen: at-most-once transport dedup
)

// Receive appends a published record, or marks a committed one.
func (b *Broker) Receive(ctx *sim.Context, m sim.Message) { b.receive(ctx, m, b.only) }

// only is the member of a group of one: every delivery goes to Consumer.
func (b *Broker) only(int64, int32) sim.NodeID { return b.Consumer }

// receive is Receive with the choice of consumer per delivery.
func (b *Broker) receive(ctx *sim.Context, m sim.Message, to func(offset int64, deliveries int32) sim.NodeID) {
	switch m.Kind {
	case MsgPublish:
		if ctx.Semantics() == sim.AtMostOnce {
			// A network copy of one publish is dropped by the transport.
			if transportDup(ctx, brokerSeen, opAttemptKey(m.Op, m.Attempt), m.Op) {
				return
			}
		}
		offset := appendPublished(ctx, brokerLog, &m, logRow{Op: m.Op, State: recordUnacked}.encode())
		if b.prefetchOne(ctx) {
			b.deliverNext(ctx, to)
			return
		}
		b.deliver(ctx, offset, to)
	case MsgCommit:
		offset := decodeOffsetCommit(m).Offset
		rec, ok := ctx.Get(brokerLog, offset, m.Op)
		if r := decodeLogRow(rec); ok && r.State != recordAcked {
			r.State = recordAcked
			ctx.Put(brokerLog, offset, m.Op, r.encode())
		}
		if b.prefetchOne(ctx) {
			ctx.CancelTimers(roles.TimerRedeliver, m.Op) // acked: nothing to give up
			b.deliverNext(ctx, to)
		}
	case MsgConsume:
		if b.prefetchOne(ctx) {
			b.resubscribe(ctx, to)
		}
	}
}

func (b *Broker) deliver(ctx *sim.Context, offset int64, to func(int64, int32) sim.NodeID) {
	r, d := nextDelivery(ctx, brokerLog, offset)
	ctx.Send(to(offset, r.Deliveries), d)
	if ctx.Semantics() != sim.AtMostOnce {
		ctx.After(b.Visibility, redeliveryTimer(roles.TimerRedeliver, r, offset))
	}
}

// Timer redelivers a record whose offset was not committed in time.
func (b *Broker) Timer(ctx *sim.Context, t sim.Timer) { b.timer(ctx, t, b.only) }

func (b *Broker) timer(ctx *sim.Context, t sim.Timer, to func(int64, int32) sim.NodeID) {
	if t.Kind != roles.TimerRedeliver {
		return
	}
	if b.prefetchOne(ctx) {
		b.giveUp(ctx, t, to)
		return
	}
	if r, ok := ctx.Get(brokerLog, t.Key, t.Op); ok && decodeLogRow(r).State != recordAcked {
		b.deliver(ctx, t.Key, to)
	}
}

// brokerConsumer and brokerVisibility read the options the family's
// brokers share.
func brokerConsumer(a *roles.Args) sim.NodeID {
	return a.Node("consumer", "where records are delivered")
}

func brokerVisibility(a *roles.Args) sim.Time {
	return a.Duration("visibility", "1s", "how long it waits for a commit before redelivering")
}

// buildBroker builds a broker node from its options, each declared where it is read.
func buildBroker(a *roles.Args) (sim.Node, []sim.TableSpec) {
	b := &Broker{
		Consumer:   brokerConsumer(a),
		Visibility: brokerVisibility(a),
		PrefetchOne: a.Enum("amo-delivery", "push", []string{"push", "prefetch-1"},
			"at-most-once delivery: push each record as it arrives and forget it, or deliver one at a time to a subscribed consumer, the next after its ack (RabbitMQ basic.qos 1, ack before the work)") == "prefetch-1",
	}
	return b, []sim.TableSpec{{Name: "log", Durable: true, AgeFree: true}, {Name: "seen", Durable: true, AgeFree: true}}
}
