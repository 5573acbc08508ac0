package brokers

import "github.com/oncesim/once/sim"

// names looks a driver's messages and points up in a scenario's topology
// by name; ok turns false at the first name missing (the driver does not
// apply to that scenario).
type names struct {
	t  *sim.Topology
	ok bool
}

// lookup starts looking names up in t.
func lookup(t *sim.Topology) *names { return &names{t: t, ok: true} }

// msg is the message kind named name.
func (n *names) msg(name string) sim.MsgKind {
	k, ok := n.t.MessageByName(name)
	n.ok = n.ok && ok
	return k
}

// point is the crash point named name.
func (n *names) point(name string) sim.PointID {
	p, ok := n.t.PointByName(name)
	n.ok = n.ok && ok
	return p
}

// nodeOf finds the node of cfg whose role is a T (the last, if several),
// as its id and role; ok turns false when there is none, as for a missing
// name.
func nodeOf[T sim.Node](n *names, cfg *sim.Config) (sim.NodeID, T) {
	id, role, found := sim.NoNode, *new(T), false
	for i, r := range cfg.Nodes {
		if x, ok := r.(T); ok {
			id, role, found = sim.NodeID(i), x, true
		}
	}
	n.ok = n.ok && found
	return id, role
}
