package lab

import (
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// receiptInvariant is the invariant the lab adds to a payment scenario
// a student's service plays under a semantics whose client sends an
// Idempotency-Key: "a replay answers the stored response"
// (docs/lab-protocol.md §7), so a retry answered with another
// transaction id is a violation even though the card was charged once.
// The catalog's own service always replays, so its rows need not say it;
// a student's service may not.
const receiptInvariant = "one-receipt"

// judgesReceipts reports whether a lab run under sem adds
// receiptInvariant: a payment-service is played, the client sends a key
// (idem, txn), and the row judged does not expect the promise broken
// whatever the node does (new-key-per-retry: every retry is a new key,
// and a new receipt is right).
func (l *Lab) judgesReceipts(sem sim.Semantics, broken bool) bool {
	if sem != sim.Idempotent && sem != sim.Transactional {
		return false
	}
	return !broken && l.plays("payment-service")
}

// plays reports whether some played node takes role.
func (l *Lab) plays(role string) bool {
	set := l.Settings
	if len(l.Scenario.Semantics) > 0 && !l.Scenario.Supports(set.Semantics) {
		set.Semantics = l.Scenario.Semantics[0]
	}
	cfg, err := l.Scenario.Config(set)
	if err != nil {
		return false
	}
	for _, name := range l.nodeNames() {
		if id, ok := cfg.Topology.NodeByName(name); ok && roleName(cfg.Nodes[id]) == role {
			return true
		}
	}
	return false
}

// withInvariant returns invs with the registered invariant name added
// when invs does not make one of that name already.
func withInvariant(cat *roles.Catalog, topo *sim.Topology, invs func() []sim.Invariant, name string) func() []sim.Invariant {
	spec, ok := cat.LookupInvariant(name)
	if !ok {
		return invs
	}
	if invs != nil && slices.ContainsFunc(invs(), func(i sim.Invariant) bool { return i.Name() == name }) {
		return invs
	}
	return func() []sim.Invariant {
		var out []sim.Invariant
		if invs != nil {
			out = invs()
		}
		return append(out, spec.New(topo))
	}
}
