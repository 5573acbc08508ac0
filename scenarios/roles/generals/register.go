package generals

import "github.com/oncesim/once/scenarios/roles"

// Register adds the generals family to c (scenarios.Families).
func Register(c *roles.Catalog) {
	c.NumberKinds(numberKinds)
	registerAgreement(c)
	c.Register(&roles.Role{Name: "general", Doc: "one of the Two Generals: answers each round with the next, decides at dawn", New: buildGeneral})
}

// numberKinds numbers the family's kinds in n, by file (roles.KindNames).
func numberKinds(n *roles.KindNames) {
	// kinds.go
	MsgPlan = n.Message("plan")
	MsgAck = n.Message("ack")
	TimerDawn = n.Timer("dawn")
	SinkAAttacks = n.Sink("general-a-attacks")
	SinkBAttacks = n.Sink("general-b-attacks")
}
