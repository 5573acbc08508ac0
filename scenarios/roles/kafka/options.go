package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// partitionLeader, txnCoordinator and txnTimeout read the options the
// family's clients share.
func partitionLeader(a *roles.Args) sim.NodeID {
	return a.Node("broker", "the partition leader")
}

func txnCoordinator(a *roles.Args) sim.NodeID {
	return a.Node("coordinator", "the transaction coordinator")
}

func txnTimeout(a *roles.Args) sim.Time {
	return a.PositiveDuration("timeout", "1s", "how long it waits for an answer; an unanswered transactional produce aborts the transaction")
}
