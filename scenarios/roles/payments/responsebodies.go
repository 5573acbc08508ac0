package payments

import (
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// storedBodies is the metric "stored-response-bodies", in responses: the
// keys whose row holds a whole response body when the run ends, folded
// from the traced writes to the tables named "keys" (a row's Value is its
// stored result; a row that keeps only the created resource's id has
// none). It is what storing the response costs, key by key: a receipt
// here, a generated PDF or a large JSON in a real API, kept for the
// whole retention — where a resource id costs a few bytes.
type storedBodies struct {
	keys   []uint64 // per node: bit i set when table i is called "keys"
	bodies []int64  // the keys holding a body, sorted: node·2^40 + key
}

// Name implements sim.Metric.
func (s *storedBodies) Name() string { return "stored-response-bodies" }

// Record implements sim.Recorder.
func (s *storedBodies) Record(e *sim.Event) {
	if e.Kind != sim.EvStorePut || int(e.Node) >= len(s.keys) || e.Label >= 64 || s.keys[e.Node]&(1<<e.Label) == 0 {
		return
	}
	id := int64(e.Node)<<40 + e.Msg.Key
	i, found := slices.BinarySearch(s.bodies, id)
	switch {
	case e.Rec.Value != 0 && !found:
		s.bodies = slices.Insert(s.bodies, i, id)
	case e.Rec.Value == 0 && found:
		s.bodies = slices.Delete(s.bodies, i, i+1)
	}
}

// Value implements sim.Metric.
func (s *storedBodies) Value() float64 { return float64(len(s.bodies)) }

func registerResponsebodies(c *roles.Catalog) {
	c.RegisterMetric(&roles.MetricSpec{
		Name: "stored-response-bodies",
		Unit: "responses",
		Doc:  "responses: keys whose stored row holds a whole response body at the end of the run (a row with the created resource's id only holds none)",
		New: func(topo *sim.Topology) sim.Metric {
			keys := make([]uint64, len(topo.Nodes))
			for n, spec := range topo.Nodes {
				for i, t := range spec.Tables {
					if t.Name == "keys" && i < 64 {
						keys[n] |= 1 << i
					}
				}
			}
			return &storedBodies{keys: keys}
		},
	})
}
