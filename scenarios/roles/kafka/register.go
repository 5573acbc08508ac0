package kafka

import "github.com/oncesim/once/scenarios/roles"

// Register adds the kafka family's kinds, roles, invariants and metrics to
// c. scenarios.RegisterFamilies calls it, in a fixed order with the
// other families; a test may call it on a catalog of its own.
func Register(c *roles.Catalog) {
	c.NumberKinds(numberKinds)
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

// numberKinds registers the family's message, timer, sink and crash-point
// names in n, in this fixed order, and sets the variables role code names
// them by (roles.KindNames says why). A new kind is declared beside the
// code that uses it and numbered here.
func numberKinds(n *roles.KindNames) {
	// kinds.go
	MsgFetch = n.Message("fetch")
	MsgRecord = n.Message("record")
	MsgProduce = n.Message("produce")
	MsgProduceAck = n.Message("produce-ack")
	MsgInitPID = n.Message("init-producer-id")
	MsgProducerID = n.Message("producer-id")
	MsgAddParts = n.Message("add-partitions")
	MsgAddPartsOK = n.Message("add-partitions-ok")
	MsgTxnOffsets = n.Message("txn-offset-commit")
	MsgOffsetCommit = n.Message("offset-commit")
	MsgOffsetAck = n.Message("offset-commit-ack")
	MsgOffsetFetch = n.Message("offset-fetch")
	MsgOffsets = n.Message("offsets")
	MsgEndTxn = n.Message("end-txn")
	MsgEndTxnResult = n.Message("end-txn-result")
	MsgMarkers = n.Message("write-markers")
	MsgMarkersDone = n.Message("markers-written")
	MsgDBWrite = n.Message("db-write")
	MsgDBPrepare = n.Message("db-prepare")
	MsgDBPrepared = n.Message("db-prepared")
	MsgDBCommit = n.Message("db-commit")
	MsgDBAbortLingering = n.Message("db-abort-lingering")
	MsgDBWriteAck = n.Message("db-write-ack")
	MsgDBCommitFailed = n.Message("db-commit-failed")
	MsgJoinGroup = n.Message("join-group")
	MsgAssignment = n.Message("assignment")
	MsgHeartbeat = n.Message("heartbeat")
	MsgHeartbeatErr = n.Message("heartbeat-error")
	MsgLeaveGroup = n.Message("leave-group")
	MsgVerifyTxn = n.Message("verify-txn")
	MsgTxnVerified = n.Message("txn-verified")
	MsgBatch = n.Message("produce-batch")
	MsgBatchAck = n.Message("produce-batch-ack")
	TimerTimeout = n.Timer("kafka-timeout")
	TimerTxnTimeout = n.Timer("kafka-txn-timeout")
	TimerSession = n.Timer("kafka-session")
	TimerHeartbeat = n.Timer("kafka-heartbeat")
	TimerDBTxnTimeout = n.Timer("db-txn-timeout")
	SinkOutput = n.Sink("kafka-output")
	SinkDBRows = n.Sink("db-rows")
	SinkPartitionRecords = n.Sink("partition-records")
	PointAfterProduce = n.Point("after-produce")
	PointBeforeProduce = n.Point("before-produce")
	PointAfterBatch = n.Point("after-batch")
	PointAfterExternal = n.Point("after-external-write")
	PointBeforeCommit = n.Point("before-commit")
	PointAfterAbort = n.Point("after-abort")
	// streamstask.go
	SinkCount = n.Sink("streams-count")
}
