package generals

import "github.com/oncesim/once/scenarios/roles"

// Register adds the generals family's kinds, roles, invariants and metrics to
// c. scenarios.RegisterFamilies calls it, in a fixed order with the
// other families; a test may call it on a catalog of its own.
func Register(c *roles.Catalog) {
	c.NumberKinds(numberKinds)
	registerAgreement(c)
	registerGeneral(c)
}

// numberKinds registers the family's message, timer, sink and crash-point
// names in n, in this fixed order, and sets the variables role code names
// them by (roles.KindNames says why). A new kind is declared beside the
// code that uses it and numbered here.
func numberKinds(n *roles.KindNames) {
	// kinds.go
	MsgPlan = n.Message("plan")
	MsgAck = n.Message("ack")
	TimerDawn = n.Timer("dawn")
	SinkAAttacks = n.Sink("general-a-attacks")
	SinkBAttacks = n.Sink("general-b-attacks")
}
