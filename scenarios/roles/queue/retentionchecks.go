package queue

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Invariants and metrics of the telemetry and key-retention lessons: folds
// over the trace, never a look inside a node.

// dedupTables marks, per node, the tables named "dedup" (bit i: table i).
func dedupTables(topo *sim.Topology) []uint64 {
	out := make([]uint64, len(topo.Nodes))
	for n, spec := range topo.Nodes {
		for i, t := range spec.Tables {
			if t.Name == "dedup" && i < 64 {
				out[n] |= 1 << i
			}
		}
	}
	return out
}

func isDedupEvent(dedup []uint64, e *sim.Event) bool {
	return int(e.Node) < len(dedup) && e.Label < 64 && dedup[e.Node]&(1<<e.Label) != 0
}

// dedupRowsPeak is the metric "dedup-rows-peak", in rows: the most rows
// the dedup stores held at one time — what the retention costs. Keys
// written (put) and removed (expired or evicted) are traced, so the fold
// keeps the live keys per node and table.
type dedupRowsPeak struct {
	dedup []uint64
	live  []int64 // the live keys, sorted: roles.TupleKey(node·64+table, key, 12)
	peak  int
}

// Name implements sim.Metric.
func (d *dedupRowsPeak) Name() string { return "dedup-rows-peak" }

// Record implements sim.Recorder.
func (d *dedupRowsPeak) Record(e *sim.Event) {
	if (e.Kind != sim.EvStorePut && e.Kind != sim.EvStoreDelete) || !isDedupEvent(d.dedup, e) {
		return
	}
	id := roles.TupleKey(int64(e.Node)*64+int64(e.Label), e.Msg.Key, 12)
	i, found := slices.BinarySearch(d.live, id)
	switch {
	case e.Kind == sim.EvStorePut && !found:
		d.live = slices.Insert(d.live, i, id)
		d.peak = max(d.peak, len(d.live))
	case e.Kind == sim.EvStoreDelete && found:
		d.live = slices.Delete(d.live, i, i+1)
	}
}

// Value implements sim.Metric.
func (d *dedupRowsPeak) Value() float64 { return float64(d.peak) }

// keptForRetention is the invariant "no dedup key is removed before its
// retention": a key a store drops while it should still remember it (an
// eviction under capacity pressure, traced as a delete that is not an
// expiry) reopens the door to a late duplicate.
type keptForRetention struct {
	dedup []uint64
	roles.Verdict
}

// Record implements sim.Recorder.
func (k *keptForRetention) Record(e *sim.Event) {
	if e.Kind == sim.EvStoreDelete && !e.Found && k.Why.Held() && isDedupEvent(k.dedup, e) {
		op, at := e.Msg.Op.String(), e.At.String()
		k.Why = sim.NewViolation("violation.kept-for-retention", 0,
			"the dedup key of "+op+" was evicted at "+at+", before its retention was over", "Op", op, "At", at)
	}
}

func (k *keptForRetention) Name() string { return "kept-for-retention" }

func (k *keptForRetention) Clone() sim.Invariant {
	return &keptForRetention{dedup: k.dedup, Verdict: k.Verdict}
}
func (k *keptForRetention) AppendState(b []byte) []byte {
	if !k.Why.Held() {
		return append(b, 1)
	}
	return append(b, 0)
}

// sampleCounts folds the effects on metric-samples per operation, and the
// operations published (the samples that really happened).
type sampleCounts struct {
	counts    []int32 // by op: samples counted on the dashboard
	published []bool  // by op: the sample was published at least once
}

func (s *sampleCounts) record(e *sim.Event) {
	op := int(e.Msg.Op)
	if op <= 0 {
		return
	}
	for len(s.counts) <= op {
		s.counts = append(s.counts, 0)
		s.published = append(s.published, false)
	}
	switch {
	case e.Kind == sim.EvSend && e.Msg.Kind == MsgPublish:
		s.published[op] = true
	case e.Kind == sim.EvEffect && sim.SinkID(e.Label) == SinkMetricSamples:
		s.counts[op]++
	}
}

// neverOvercounted is the invariant "the dashboard never counts a sample
// twice": where a duplicate costs more than a loss (a false page at night,
// a customer billed for calls never made, a rate limiter that blocks), a
// count above the truth is the failure, a count slightly below it is not.
type neverOvercounted struct {
	sampleCounts
	roles.Verdict
}

// Record implements sim.Recorder.
func (n *neverOvercounted) Record(e *sim.Event) {
	n.record(e)
	if e.Kind == sim.EvEffect && n.Why.Held() && int(e.Msg.Op) < len(n.counts) && n.counts[e.Msg.Op] > 1 {
		op, times := e.Msg.Op.String(), int(n.counts[e.Msg.Op])
		n.Why = sim.NewViolation("violation.never-overcounted", times,
			fmt.Sprintf("the sample of %s was counted %d times: the dashboard shows more than happened", op, times), "Op", op)
	}
}

func (n *neverOvercounted) Name() string { return "never-overcounted" }

func (n *neverOvercounted) Clone() sim.Invariant {
	return &neverOvercounted{sampleCounts: sampleCounts{counts: slices.Clone(n.counts), published: slices.Clone(n.published)}, Verdict: n.Verdict}
}
func (n *neverOvercounted) AppendState(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(n.counts)))
	for i, c := range n.counts {
		b = binary.AppendUvarint(b, uint64(c))
		b = appendFlag(b, n.published[i])
	}
	if !n.Why.Held() {
		return append(b, 1)
	}
	return append(b, 0)
}

// countError is the metric "overcount-pct" (over=true) or
// "undercount-pct": samples counted more than once (each extra count), or
// never, in percent of the samples published.
type countError struct {
	sampleCounts
	over bool
}

func (c *countError) Name() string {
	if c.over {
		return "overcount-pct"
	}
	return "undercount-pct"
}

// Record implements sim.Recorder.
func (c *countError) Record(e *sim.Event) { c.record(e) }

// Value implements sim.Metric.
func (c *countError) Value() float64 {
	published, off := 0, 0
	for op, p := range c.published {
		if !p {
			continue
		}
		published++
		switch n := c.counts[op]; {
		case c.over && n > 1:
			off += int(n) - 1
		case !c.over && n == 0:
			off++
		}
	}
	if published == 0 {
		return 0
	}
	return 100 * float64(off) / float64(published)
}

func registerRetentionchecks(c *roles.Catalog) {
	c.RegisterMetric(&roles.MetricSpec{
		Name: "dedup-rows-peak",
		Unit: "rows",
		Doc:  "rows: the most rows the dedup stores held at one time (what retention costs)",
		New:  func(topo *sim.Topology) sim.Metric { return &dedupRowsPeak{dedup: dedupTables(topo)} },
	})
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "kept-for-retention",
		Doc:  "no dedup key is removed before its retention is over (an eviction under capacity pressure breaks it)",
		New:  func(topo *sim.Topology) sim.Invariant { return &keptForRetention{dedup: dedupTables(topo)} },
	})
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "never-overcounted",
		Doc:  "no telemetry sample is counted twice on the dashboard (an undercount is tolerated, an overcount is not)",
		New:  func(*sim.Topology) sim.Invariant { return &neverOvercounted{} },
	})
	c.RegisterMetric(&roles.MetricSpec{
		Name: "overcount-pct",
		Unit: "%",
		Doc:  "percent: extra counts of samples counted more than once, per sample published",
		New:  func(*sim.Topology) sim.Metric { return &countError{over: true} },
	})
	c.RegisterMetric(&roles.MetricSpec{
		Name: "undercount-pct",
		Unit: "%",
		Doc:  "percent: samples published but never counted",
		New:  func(*sim.Topology) sim.Metric { return &countError{} },
	})
}
