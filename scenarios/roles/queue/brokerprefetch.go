package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// The broker's at-most-once delivery with a prefetch of one (RabbitMQ's
// basic.qos 1 and a consumer that acks before it works), in a file of its
// own so the lesson does not touch the family's shared kinds.
var MsgConsume sim.MsgKind // consumer → broker: subscribe again after a restart

// recordDelivered is a log record delivered with a prefetch of one and
// not yet acknowledged: no other record is delivered meanwhile.
const recordDelivered int32 = 2

// prefetchOne says whether this delivery is the prefetch-one kind: the
// broker's option, under at-most-once only.
func (b *Broker) prefetchOne(ctx *sim.Context) bool {
	return b.PrefetchOne && ctx.Semantics() == sim.AtMostOnce
}

// resubscribe takes a restarted consumer's consume: its old connection is
// gone, so the record delivered to it and never acknowledged goes back to
// the queue (RabbitMQ requeues a dead consumer's unacked deliveries) and
// is delivered again. The consumer subscribed at its first boot before
// anything was published (no message: a live run's consumer is ready
// before its producer starts).
func (b *Broker) resubscribe(ctx *sim.Context, to func(int64, int32) sim.NodeID) {
	rows := ctx.Rows(brokerLog)
	var requeue []int64
	for i := 0; i < rows.Len(); i++ {
		if offset, r := rows.At(i); r.State == recordDelivered {
			requeue = append(requeue, offset)
		}
	}
	for _, offset := range requeue {
		rec, _ := ctx.Get(brokerLog, offset, 0)
		r := decodeLogRow(rec)
		r.State = recordUnacked
		ctx.Put(brokerLog, offset, r.Op, r.encode())
	}
	b.deliverNext(ctx, to)
}

// deliverNext delivers the first record waiting, unless a delivery is
// unacknowledged.
func (b *Broker) deliverNext(ctx *sim.Context, to func(int64, int32) sim.NodeID) {
	rows := ctx.Rows(brokerLog)
	next := int64(0)
	for i := 0; i < rows.Len(); i++ {
		offset, r := rows.At(i)
		if r.State == recordDelivered {
			return
		}
		if r.State == recordUnacked && next == 0 {
			next = offset
		}
	}
	if next == 0 {
		return
	}
	rec, _ := ctx.Get(brokerLog, next, 0)
	r := decodeLogRow(rec)
	r.Deliveries++
	r.State = recordDelivered
	ctx.Put(brokerLog, next, r.Op, r.encode())
	ctx.Send(to(next, r.Deliveries), delivery{Offset: next, Record: roles.Payload(r.Op)}.encode(envelope{Kind: MsgDeliver, Op: r.Op, Attempt: r.Deliveries}))
	ctx.After(b.Visibility, redeliveryTimer(roles.TimerRedeliver, r, next))
}

// giveUp ends a delivery whose ack did not come within the visibility
// timeout: at most once, it is not delivered again; the next one goes.
func (b *Broker) giveUp(ctx *sim.Context, t sim.Timer, to func(int64, int32) sim.NodeID) {
	rec, ok := ctx.Get(brokerLog, t.Key, t.Op)
	if r := decodeLogRow(rec); ok && r.State == recordDelivered && r.Deliveries == t.Attempt {
		r.State = recordAcked
		ctx.Put(brokerLog, t.Key, t.Op, r.encode())
		b.deliverNext(ctx, to)
	}
}
