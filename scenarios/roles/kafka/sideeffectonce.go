package kafka

import (
	"fmt"
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

func registerSideeffectonce(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "side-effect-once",
		Doc:  "an external system called from inside a stream processor gets each operation's call at most once (db-rows effects): what a Kafka transaction does not cover",
		New:  func(*sim.Topology) sim.Invariant { return &sideEffectOnce{onceSeen{sink: SinkDBRows}} },
	})
}

// sideEffectOnce folds the operations whose external call took effect
// (db-rows effects) and remembers the first one called twice.
type sideEffectOnce struct{ onceSeen }

// onceSeen folds the operations with an effect on sink (sorted in seen)
// and remembers the first one seen twice.
type onceSeen struct {
	sink  sim.SinkID
	seen  []int64 // sorted operations
	twice sim.OpID
}

// see folds e: first says its operation is new, at index i of seen, and
// twice that it is the first operation seen twice.
func (v *onceSeen) see(e *sim.Event) (i int, first, twice bool) {
	if e.Kind != sim.EvEffect || sim.SinkID(e.Label) != v.sink || e.Msg.Op <= 0 {
		return 0, false, false
	}
	op := int64(e.Msg.Op)
	i, found := slices.BinarySearch(v.seen, op)
	if !found {
		v.seen = slices.Insert(v.seen, i, op)
		return i, true, false
	}
	if v.twice != 0 {
		return i, false, false
	}
	v.twice = e.Msg.Op
	return i, false, true
}

func (v *sideEffectOnce) Name() string { return "side-effect-once" }

func (v *sideEffectOnce) Record(e *sim.Event) { v.see(e) }

func (v *sideEffectOnce) Violation(f bool) string { return v.ViolationDetail(f).English }

// ViolationDetail implements sim.ViolationDetailer.
func (v *sideEffectOnce) ViolationDetail(bool) sim.Violation {
	if v.twice == 0 {
		return sim.Violation{}
	}
	return sim.NewViolation("violation.side-effect-once", 0,
		fmt.Sprintf("the external system was called twice for %s: no Kafka transaction covers the call", v.twice),
		"Op", v.twice.String())
}

func (v *sideEffectOnce) Clone() sim.Invariant {
	c := *v
	c.seen = slices.Clone(v.seen)
	return &c
}

func (v *sideEffectOnce) AppendState(b []byte) []byte {
	b = appendList(b, v.seen)
	return appendInts(b, int64(v.twice))
}
