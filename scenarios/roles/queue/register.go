package queue

import "github.com/oncesim/once/scenarios/roles"

// Register adds the queue family's roles, invariants and metrics to c.
// scenarios.Catalog calls it, in a fixed order with the other families;
// a test calls it on a catalog of its own.
func Register(c *roles.Catalog) {
	registerBalanceconsumer(c)
	registerBroker(c)
	registerCdcconnector(c)
	registerConsumer(c)
	registerDedupconsumer(c)
	registerDurablequeue(c)
	registerFiforelay(c)
	registerGroupbroker(c)
	registerHitrate(c)
	registerHourlyaggregator(c)
	registerHourtotals(c)
	registerInputlog(c)
	registerJetstream(c)
	registerJetstreamconsumer(c)
	registerMetricscollector(c)
	registerNophantoms(c)
	registerOrderlineconsumer(c)
	registerOrderlinesdb(c)
	registerOutboxrelay(c)
	registerOutboxservice(c)
	registerProducer(c)
	registerPubsubserver(c)
	registerPubsubsubscriber(c)
	registerRedisstream(c)
	registerReplay(c)
	registerRetainingconsumer(c)
	registerRetentionchecks(c)
	registerRighttotals(c)
	registerSqsfifo(c)
	registerStreamconsumer(c)
}
