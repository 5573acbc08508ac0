package payments

import "github.com/oncesim/once/scenarios/roles"

// Register adds the payments family's roles, invariants and metrics to c.
// scenarios.Catalog calls it, in a fixed order with the other families;
// a test calls it on a catalog of its own.
func Register(c *roles.Catalog) {
	registerBacklogbound(c)
	registerBackoffclient(c)
	registerCheckedservice(c)
	registerChecks(c)
	registerClient(c)
	registerClosureservice(c)
	registerFencedledger(c)
	registerGateway(c)
	registerIntentservice(c)
	registerKeyissuing(c)
	registerKeystore(c)
	registerLeaseservice(c)
	registerLockedworker(c)
	registerOrderservice(c)
	registerPowertools(c)
	registerRatelimitedprovider(c)
	registerReconciler(c)
	registerResponsebodies(c)
	registerRestchecks(c)
	registerRestclient(c)
	registerRestservice(c)
	registerSagachecks(c)
	registerSagaorchestrator(c)
	registerSagaparticipant(c)
	registerService(c)
	registerStepservice(c)
	registerUnknownrate(c)
}
