package queue

import "github.com/oncesim/once/scenarios/roles"

// Register adds the queue family to c (scenarios.Families).
// Its roles send the payments family's kinds: a catalog of it holds payments.
func Register(c *roles.Catalog) {
	c.NumberKinds(numberKinds)
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

// numberKinds numbers the family's kinds in n, by file (roles.KindNames).
func numberKinds(n *roles.KindNames) {
	// brokerprefetch.go
	MsgConsume = n.Message("consume")
	// cdcconnector.go
	TimerOffsetFlush = n.Timer("offset-flush")
	// durablequeue.go
	PointBeforePersist = n.Point("before-persist")
	PointAfterPersist = n.Point("after-persist")
	// kinds.go
	MsgPublish = n.Message("publish")
	MsgPublishAck = n.Message("publish-ack")
	MsgDeliver = n.Message("deliver")
	MsgCommit = n.Message("commit")
	MsgOutboxNotify = n.Message("outbox-notify")
	MsgOutboxFetch = n.Message("outbox-fetch")
	MsgOutboxRow = n.Message("outbox-row")
	MsgReadInput = n.Message("read")
	MsgInputRecord = n.Message("input-record")
	SinkBilling = n.Sink("billing")
	SinkLogRecords = n.Sink("log-records")
	SinkOrders = n.Sink("orders")
	SinkBalances = n.Sink("balances")
	SinkOrderLines = n.Sink("order-lines")
	SinkHourlyTotals = n.Sink("hourly-totals")
	PointAfterCommit = n.Point("after-commit")
	PointAfterEffect = n.Point("after-effect")
	PointBeforeMark = n.Point("before-mark")
	PointAfterSend = n.Point("after-send")
	PointAfterOffsetWrite = n.Point("after-offset-commit")
	PointAfterPublish = n.Point("after-publish")
	PointAfterDBCommit = n.Point("after-db-commit")
	PointAfterEmit = n.Point("after-emit")
	// newkinds.go
	SinkMetricSamples = n.Sink("metric-samples")
	SinkOrdersShipped = n.Sink("orders-shipped")
	TimerSweep = n.Timer("sweep")
	// pubsubkinds.go
	MsgPubSubAck = n.Message("ack")
	MsgAckResponse = n.Message("ack-response")
	TimerAckExpiry = n.Timer("ack-deadline")
	TimerAckRetry = n.Timer("ack-retry")
	// redisstream.go
	MsgXReadGroup = n.Message("xreadgroup")
	MsgXReadTimeout = n.Message("xread-timeout")
	MsgXAck = n.Message("xack")
	MsgXAutoClaim = n.Message("xautoclaim")
	MsgXAutoClaimed = n.Message("xautoclaim-reply")
	TimerStreamBlock = n.Timer("stream-block")
}
