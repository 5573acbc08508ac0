package generals

import "github.com/oncesim/once/scenarios/roles"

// Register adds the generals family's roles, invariants and metrics to c.
// scenarios.Catalog calls it, in a fixed order with the other families;
// a test calls it on a catalog of its own.
func Register(c *roles.Catalog) {
	registerAgreement(c)
	registerGeneral(c)
}
