package kafka

import "github.com/oncesim/once/scenarios/roles"

// Register adds the kafka family's roles, invariants and metrics to c.
// scenarios.Catalog calls it, in a fixed order with the other families;
// a test calls it on a catalog of its own.
func Register(c *roles.Catalog) {
	registerBroker(c)
	registerCoordinator(c)
	registerCountreader(c)
	registerExternaldb(c)
	registerHanging(c)
	registerIdemleader(c)
	registerIdemproducer(c)
	registerInvariants(c)
	registerOpentxn(c)
	registerOutputonce(c)
	registerProcessor(c)
	registerProducer(c)
	registerReader(c)
	registerSideeffectonce(c)
	registerStreamstask(c)
}
