package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Consumer processes delivered records into the billing sink and commits
// their offsets.
//
//   - at-most-once: commit first, then process — a crash in between loses
//     the record;
//   - at-least-once: process, then commit — a crash in between (or a lost
//     commit) brings a redelivery and a second billing row;
//   - idempotent: look the operation ID up in the dedup store; if absent,
//     write the dedup row and the billing row in one local transaction,
//     then commit. With MarkAfter the dedup row is written after the
//     billing row, not with it, and a crash between them duplicates.
//
// With KeyByOffset, for the operations after the first KeyFromPct percent
// (a release that goes live when that share of the workload is published)
// the dedup key is the record's offset in the log — the broker's message
// id — instead of the operation ID: a republished copy of a record has its
// own offset and is never recognised, only a redelivery of the same offset
// is.
type Consumer struct {
	passive
	Broker      sim.NodeID
	MarkAfter   bool
	TTL         sim.Time // 0 = dedup rows never expire
	KeyByOffset bool
	KeyFromPct  int64
}

// offsetKeyBase puts the offset keys apart from the operation keys
// (offset 4 is key 1000004 in the trace).
const offsetKeyBase = 1_000_000

// dedupKey is the key the consumer looks m up by.
func (c *Consumer) dedupKey(ctx *sim.Context, m *sim.Message) int64 {
	if c.KeyByOffset && int64(m.Op)*100 > c.KeyFromPct*int64(ctx.Ops()) {
		return offsetKeyBase + decodeDelivery(*m).Offset
	}
	return int64(m.Op)
}

const (
	consumerDedup sim.TableID = iota // operation ID → processed
	consumerSeen                     // offsets seen: at-most-once transport dedup
)

// Receive processes one delivered record.
func (c *Consumer) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgDeliver {
		return
	}
	switch ctx.Semantics() {
	case sim.AtMostOnce:
		// The broker delivers each offset once under at-most-once; a
		// network copy of that delivery is dropped by the transport.
		if !commitFirst(ctx, consumerSeen, c.Broker, decodeDelivery(m).Offset, &m) {
			return
		}
		ctx.Effect(SinkBilling, m.Op, decodeDelivery(m).Record)
	case sim.AtLeastOnce:
		ctx.Effect(SinkBilling, m.Op, decodeDelivery(m).Record)
		if ctx.CrashPoint(PointAfterEffect, &m) {
			return
		}
		commitDelivery(ctx, c.Broker, &m)
	default:
		c.receiveIdempotent(ctx, m)
	}
}

func (c *Consumer) receiveIdempotent(ctx *sim.Context, m sim.Message) {
	key := c.dedupKey(ctx, &m)
	r, seen := ctx.Get(consumerDedup, key, m.Op)
	if seen && c.TTL > 0 && ctx.Now()-r.At >= c.TTL {
		ctx.Expire(consumerDedup, key, m.Op)
		seen = false
	}
	if seen {
		commitDelivery(ctx, c.Broker, &m) // a duplicate: acknowledge it, do nothing else
		return
	}
	if c.MarkAfter {
		ctx.Effect(SinkBilling, m.Op, decodeDelivery(m).Record)
		if ctx.CrashPoint(PointBeforeMark, &m) {
			return
		}
		ctx.Put(consumerDedup, key, m.Op, processedRow())
	} else {
		// One local transaction: the dedup row and the billing row commit together.
		ctx.Put(consumerDedup, key, m.Op, processedRow())
		ctx.Effect(SinkBilling, m.Op, decodeDelivery(m).Record)
	}
	if ctx.CrashPoint(PointAfterEffect, &m) {
		return
	}
	commitDelivery(ctx, c.Broker, &m)
}

// consumerBroker reads the option of the family's consumers that names
// their broker.
func consumerBroker(a *roles.Args) sim.NodeID {
	return a.Node("broker", "where commits go")
}

// buildConsumer builds a consumer node from its options, each declared where it is read.
func buildConsumer(a *roles.Args) (sim.Node, []sim.TableSpec) {
	broker := consumerBroker(a)
	durable := a.Enum("store", "durable", roles.StoreValues, "the dedup store: durable, or memory lost on a crash") == "durable"
	c := &Consumer{
		Broker:    broker,
		MarkAfter: a.Enum("mark", "before", []string{"before", "after"}, "dedup row written with the effect, or after it") == "after",
		TTL:       a.Duration("ttl", "0", "how long a dedup row is remembered (0 = forever)"),
		KeyByOffset: a.Enum("key", "operation", []string{"operation", "offset"},
			"the dedup key of the operations after key-from: the operation ID, or the record's offset (the broker's message id, new for every republished copy)") == "offset",
		KeyFromPct: a.Int("key-from", 0, 0, 100, "the percent of the operations (the first ones) still keyed by operation ID: a release of the key option that goes live when they are published"),
	}
	return c, []sim.TableSpec{roles.StoreTable("dedup", durable, roles.KeyStates), {Name: "seen", Durable: true, AgeFree: true}}
}
