package queue

import "github.com/oncesim/once/scenarios/roles"

// Register adds the queue family to c (scenarios.Families).
// Its roles send the payments family's kinds: a catalog of it holds payments.
func Register(c *roles.Catalog) {
	c.NumberKinds(numberKinds)
	c.Register(&roles.Role{Name: "balance-consumer", Doc: "applies payments to booking totals as \"add amount\" (increment), \"the total is now T\" (set) or \"the total is now T as of payment v\" (versioned-set); no dedup store", New: buildBalanceconsumer})
	c.Register(&roles.Role{Name: "broker", Doc: "a durable log with offsets; redelivers uncommitted records after a visibility timeout", New: buildBroker})
	c.Register(&roles.Role{Name: "cdc-connector", Doc: "a Debezium-style CDC connector: emits each outbox row to the broker and flushes its source offset every flush-interval; a crash resumes from the last flushed offset and emits the rows since again", New: buildCdcconnector})
	c.Register(&roles.Role{Name: "consumer", Doc: "processes delivered records into the billing sink and commits their offsets", New: buildConsumer})
	c.Register(&roles.Role{Name: "dedup-consumer", Doc: "charges at a gateway for every delivered record, behind dedup keys in a key-store node: lock-before-effect (SET NX PX, ask the gateway, charge, SET DONE) or check-call-mark", New: buildDedupconsumer})
	registerDurablequeue(c)
	c.Register(&roles.Role{Name: "fifo-relay", Doc: "an outbox relay sending each order to an SQS FIFO queue until answered, with MessageDeduplicationId = the order id or content-based deduplication; sends pending rows again after a restart", New: buildFiforelay})
	c.Register(&roles.Role{Name: "group-broker", Doc: "a durable log with offsets delivering to a consumer group of two: each redelivery goes to the other member", New: buildGroupbroker})
	registerHitrate(c)
	c.Register(&roles.Role{Name: "hourly-aggregator", Doc: "a batch job summing events per event-time hour into hourly_totals (append or overwrite; late events ignored or recomputed); restarts from the first offset after a crash", New: buildHourlyaggregator})
	registerHourtotals(c)
	c.Register(&roles.Role{Name: "input-log", Doc: "a replayable log of yesterday's events, one per operation at offset op, with its event-time hour; answers fetches", New: buildInputlog})
	c.Register(&roles.Role{Name: "jetstream", Doc: "a NATS JetStream stream and its push consumer: Nats-Msg-Id dedup inside the duplicate window, redelivery after AckWait, acks by stream sequence (a late ack acks the redelivered message)", New: buildJetstream})
	c.Register(&roles.Role{Name: "jetstream-consumer", Doc: "a NATS JetStream subscriber: ships an order per delivered message and acks it; with dedup=msg-id it skips Nats-Msg-Id headers it has processed", New: buildJetstreamconsumer})
	c.Register(&roles.Role{Name: "metrics-collector", Doc: "adds each delivered telemetry sample to a dashboard counter (metric-samples) and commits its offset", New: buildMetricscollector})
	registerNophantoms(c)
	c.Register(&roles.Role{Name: "order-line-consumer", Doc: "a consumer group member writing order lines into a database node: plain INSERT, check-then-insert, or upsert on the natural key", New: buildOrderlineconsumer})
	registerOrderlinesdb(c)
	c.Register(&roles.Role{Name: "outbox-relay", Doc: "publishes the service's outbox rows in order and keeps its position durable; republishes after a crash between publish and position", New: buildOutboxrelay})
	c.Register(&roles.Role{Name: "outbox-service", Doc: "places one order per operation and announces it: transactional outbox + relay, or a dual write (commit-then-publish, publish-then-commit)", New: buildOutboxservice})
	c.Register(&roles.Role{Name: "producer", Doc: "publishes one record per operation; republishes until acknowledged except under at-most-once", New: buildProducer})
	c.Register(&roles.Role{Name: "pubsub-server", Doc: "Pub/Sub's side of a subscription: delivers each message with an ack id and redelivers it when the ack deadline expires; with exactly-once delivery only the latest ack id acks, and every ack is answered", New: buildPubsubserver})
	c.Register(&roles.Role{Name: "pubsub-subscriber", Doc: "a Pub/Sub subscriber: ships an order per message and acks it (with response under exactly-once delivery); with record=durable it skips message ids it has processed", New: buildPubsubsubscriber})
	c.Register(&roles.Role{Name: "redis-stream", Doc: "a Redis stream with one consumer group: XREADGROUP puts an entry in the reader's pending entries list, XACK takes it out; a pending entry is never delivered again by itself, only claimed with XAUTOCLAIM after min-idle-time", New: buildRedisstream})
	registerReplay(c)
	c.Register(&roles.Role{Name: "retaining-consumer", Doc: "an idempotent billing consumer whose dedup store has a retention (ttl, swept) and a capacity (oldest row evicted)", New: buildRetainingconsumer})
	registerRetentionchecks(c)
	registerRighttotals(c)
	c.Register(&roles.Role{Name: "sqs-fifo", Doc: "an SQS FIFO queue: a send whose MessageDeduplicationId (or, content-based, the body's SHA-256) was accepted in the last 5 minutes is accepted and not delivered; redelivers after the visibility timeout until deleted", New: buildSqsfifo})
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
