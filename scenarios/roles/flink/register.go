package flink

import "github.com/oncesim/once/scenarios/roles"

// Register adds the flink family's roles, invariants and metrics to c.
// scenarios.Catalog calls it, in a fixed order with the other families;
// a test calls it on a catalog of its own.
func Register(c *roles.Catalog) {
	registerJobmanager(c)
	registerLatency(c)
	registerOperatorstate(c)
	registerSink(c)
	registerSource(c)
}
