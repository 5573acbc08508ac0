package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// MetricsCollector adds each delivered telemetry sample to a dashboard
// counter (an effect on metric-samples) and commits its offset:
//
//   - at-most-once: commit first, then count — a crash in between loses
//     the sample, and the broker never redelivers it;
//   - at-least-once: count, then commit — a lost commit or a crash in
//     between brings a redelivery, counted again;
//   - idempotent: a durable dedup row per sample, written with the count
//     in one local transaction: exactly once, at the price of one row per
//     sample ever seen (the dedup-rows metric).
type MetricsCollector struct {
	passive
	Broker sim.NodeID
}

const (
	collectorDedup sim.TableID = iota // operation → counted (idempotent only)
	collectorSeen                     // offsets seen: at-most-once transport dedup
)

// Receive counts one delivered sample.
func (c *MetricsCollector) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgDeliver {
		return
	}
	sample := decodeDelivery(m).Record
	switch ctx.Semantics() {
	case sim.AtMostOnce:
		if !commitFirst(ctx, collectorSeen, c.Broker, decodeDelivery(m).Offset, &m) {
			return
		}
		ctx.Effect(SinkMetricSamples, m.Op, sample)
	case sim.AtLeastOnce:
		ctx.Effect(SinkMetricSamples, m.Op, sample)
		if ctx.CrashPoint(PointAfterEffect, &m) {
			return
		}
		commitDelivery(ctx, c.Broker, &m)
	default:
		if _, seen := ctx.Get(collectorDedup, int64(m.Op), m.Op); !seen {
			ctx.Put(collectorDedup, int64(m.Op), m.Op, processedRow())
			ctx.Effect(SinkMetricSamples, m.Op, sample)
		}
		if ctx.CrashPoint(PointAfterEffect, &m) {
			return
		}
		commitDelivery(ctx, c.Broker, &m)
	}
}

// buildMetricscollector builds a metrics-collector node from its options, each declared where it is read.
func buildMetricscollector(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &MetricsCollector{Broker: consumerBroker(a)}
	return c, []sim.TableSpec{roles.StoreTable("dedup", true, roles.KeyStates), {Name: "seen", Durable: true, AgeFree: true}}
}
