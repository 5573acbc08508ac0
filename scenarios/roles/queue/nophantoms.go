package queue

import (
	"strconv"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// noPhantoms is the invariant "no-phantom-events": no downstream effect of
// an event happens while the domain change it announces is not committed.
// It folds the trace: effects on the orders sink commit an operation; an
// effect of that operation on any other sink before then is a phantom.
type noPhantoms struct {
	orders    int           // the orders sink's index, -1 without one
	committed []bool        // by op
	first     sim.Violation // the first phantom effect
	phantoms  int32
	topo      *sim.Topology
}

func newNoPhantoms(topo *sim.Topology) *noPhantoms {
	n := &noPhantoms{topo: topo, orders: -1}
	for i, name := range topo.Sinks {
		if name == "orders" {
			n.orders = i
		}
	}
	return n
}

// Name implements sim.Invariant.
func (n *noPhantoms) Name() string { return "no-phantom-events" }

// Record implements sim.Recorder.
func (n *noPhantoms) Record(e *sim.Event) {
	if e.Kind != sim.EvEffect || e.Msg.Op <= 0 {
		return
	}
	op := int(e.Msg.Op)
	for len(n.committed) <= op {
		n.committed = append(n.committed, false)
	}
	if int(e.Sink()) == n.orders {
		n.committed[op] = true
		return
	}
	if !n.committed[op] {
		n.phantoms++
		if n.first.Held() {
			op, sink, at := e.Msg.Op.String(), n.topo.SinkName(sim.SinkID(e.Label)), e.At.String()
			n.first = sim.NewViolation("violation.no-phantom-events.first", 1,
				op+"'s event took effect on "+sink+" at "+at+" while its order was not committed",
				"Op", op, "Sink", sink, "At", at)
		}
	}
}

// Violation implements sim.Invariant.
func (n *noPhantoms) Violation(f bool) string { return n.ViolationDetail(f).English }

// ViolationDetail implements sim.ViolationDetailer: the first phantom
// effect, and how many there were in all when more than one.
func (n *noPhantoms) ViolationDetail(bool) sim.Violation {
	if n.phantoms == 0 {
		return sim.Violation{}
	}
	if n.phantoms == 1 {
		return n.first
	}
	v := n.first
	v.ID, v.Count = "violation.no-phantom-events.more", int(n.phantoms)
	v.English += " (" + strconv.Itoa(int(n.phantoms)) + " phantom effects in all)"
	return v
}

// Clone implements sim.Invariant.
func (n *noPhantoms) Clone() sim.Invariant {
	c := *n
	c.committed = append([]bool(nil), n.committed...)
	return &c
}

// AppendState implements sim.Invariant.
func (n *noPhantoms) AppendState(b []byte) []byte {
	for _, c := range n.committed {
		b = appendFlag(b, c)
	}
	return append(b, byte(min(n.phantoms, 255)))
}

func registerNophantoms(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "no-phantom-events",
		Doc:  "no event takes effect downstream while the domain change it announces (an effect on orders) is not committed",
		New:  func(topo *sim.Topology) sim.Invariant { return newNoPhantoms(topo) },
	})
}
