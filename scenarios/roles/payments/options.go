package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// responsesTo, cardGateway and durableKeys read the options the family's
// payment services share; opInterval and retryTimeout those of its
// clients.
func responsesTo(a *roles.Args) sim.NodeID {
	return a.Node("client", "where responses go")
}

func cardGateway(a *roles.Args) sim.NodeID {
	return a.Node("gateway", "the card gateway")
}

// durableKeys reads option store: whether the key store is a durable
// table (or memory lost on a crash).
func durableKeys(a *roles.Args) bool {
	return a.Enum("store", "durable", roles.StoreValues, "the key store: a durable table, or memory lost on a crash") == "durable"
}

func opInterval(a *roles.Args) sim.Time {
	return a.Duration("interval", "100ms", "time between the starts of two operations")
}

func retryTimeout(a *roles.Args) sim.Time {
	return a.Duration("timeout", "1s", "how long it waits before retrying")
}
