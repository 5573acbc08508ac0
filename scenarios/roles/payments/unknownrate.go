package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// unknownRate is the metric "unknown-arrival-rate": how many intents per
// second went UNKNOWN (their provider call timed out) while they arrived,
// from the start to the last one — the arrival rate u a reconciler of
// rate r must keep up with. (Over the whole run it would fall with a slow
// reconciler, whose drain lengthens the run.)
type unknownRate struct {
	unknown [][]int32 // node → table → index of UNKNOWN (0: none)
	n       int
	last    sim.Time
}

// Record implements sim.Recorder.
func (x *unknownRate) Record(e *sim.Event) {
	if e.Kind != sim.EvStorePut {
		return
	}
	if u := h2StateIn(x.unknown, e.Node, e.Table()); u != 0 && e.Rec.State == u {
		x.n++
		x.last = e.At
	}
}

func (x *unknownRate) Name() string { return "unknown-arrival-rate" }

// Value is UNKNOWN intents per second of virtual time, up to the last of
// them (0 when none went UNKNOWN).
func (x *unknownRate) Value() float64 {
	if x.last <= 0 {
		return 0
	}
	return float64(x.n) * 1000 / float64(x.last)
}

func registerUnknownrate(c *roles.Catalog) {
	c.RegisterMetric(&roles.MetricSpec{
		Name: "unknown-arrival-rate",
		Unit: "/s",
		Doc:  "intents per second that went UNKNOWN (the provider call timed out): the arrival rate u a reconciler must match",
		New:  func(topo *sim.Topology) sim.Metric { return &unknownRate{unknown: h2TableState(topo, "", "UNKNOWN")} },
	})
}
