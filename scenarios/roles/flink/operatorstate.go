package flink

import (
	"fmt"
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// operatorTableName names the sink's operator-state table; the invariant
// finds it by this name.
const operatorTableName = "operator-state"

func registerOperatorstate(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "state-exactly-once",
		Doc:  "at the end of a finished run, the sink's operator state has counted each record of the stream once (exactly-once state, whatever the effects)",
		New:  func(topo *sim.Topology) sim.Invariant { return newStateOnce(topo) },
	})
}

// stateOnce folds the records the sink was handed (stream-record
// deliveries, one per distinct operation) and the last value its
// operator-state table was given. A run without operator state has
// nothing to judge.
type stateOnce struct {
	tables  []int8 // per node: the operator-state table, or -1
	ops     []int64
	last    int64
	written bool
}

func newStateOnce(topo *sim.Topology) *stateOnce {
	v := &stateOnce{tables: make([]int8, len(topo.Nodes))}
	for n := range topo.Nodes {
		v.tables[n] = -1
		for t, spec := range topo.Nodes[n].Tables {
			if spec.Name == operatorTableName && t < 127 {
				v.tables[n] = int8(t)
			}
		}
	}
	return v
}

func (v *stateOnce) Name() string { return "state-exactly-once" }

func (v *stateOnce) Record(e *sim.Event) {
	switch {
	case e.Kind == sim.EvDeliver && e.Msg.Kind == MsgRecord:
		op := int64(e.Msg.Op)
		if i, found := slices.BinarySearch(v.ops, op); !found {
			v.ops = slices.Insert(v.ops, i, op)
		}
	case e.Kind == sim.EvStorePut && int(e.Node) < len(v.tables) && v.tables[e.Node] >= 0 && int(e.Label) == int(v.tables[e.Node]):
		v.last, v.written = e.Rec.Value, true
	}
}

func (v *stateOnce) Violation(finished bool) string { return v.ViolationDetail(finished).English }

// ViolationDetail implements sim.ViolationDetailer.
func (v *stateOnce) ViolationDetail(finished bool) sim.Violation {
	if !finished || !v.written || v.last == int64(len(v.ops)) {
		return sim.Violation{}
	}
	return sim.NewViolation("violation.state-exactly-once", len(v.ops),
		fmt.Sprintf("the operator state counted %d records of a stream of %d", v.last, len(v.ops)),
		"Counted", sim.Itoa(v.last))
}

func (v *stateOnce) Clone() sim.Invariant {
	c := *v
	c.ops = slices.Clone(v.ops)
	return &c
}

func (v *stateOnce) AppendState(b []byte) []byte {
	b = fmt.Appendf(b, "%d:%d:%t:", len(v.ops), v.last, v.written)
	for _, op := range v.ops {
		b = fmt.Appendf(b, "%d,", op)
	}
	return b
}
