// Package kafka is the Kafka-transactions family: a read-process-write
// processor, the partition leader, the transaction coordinator, downstream
// readers, and the external database (also written by the flink family).
package kafka

import "github.com/oncesim/once/scenarios/roles"

// Message kinds, timers, sinks and crash points of the Kafka-transactions
// family: a read-process-write processor, a partition leader (the broker,
// also the group coordinator that stores consumed offsets), a transaction
// coordinator, downstream readers and an external database.
//
// Each kind has a typed view in views.go (dbviews.go for the database's
// kinds) that names its fields and says which generic slot carries each;
// role code reads and writes messages only through those views.
//
// On the processor's control requests (init-producer-id, offset-fetch,
// add-partitions, txn-offset-commit, offset-commit, end-txn) Attempt is a
// correlation id, echoed by the answer: the processor accepts only the
// answer to the request it is waiting for, as a Kafka client matches
// responses to requests.
var (
	MsgFetch            = roles.Message("fetch")              // consumer → broker: the next visible record from a position
	MsgRecord           = roles.Message("record")             // broker → consumer: one record
	MsgProduce          = roles.Message("produce")            // processor → broker: append an output record
	MsgProduceAck       = roles.Message("produce-ack")        // broker → processor: appended (or fenced, or a duplicate)
	MsgInitPID          = roles.Message("init-producer-id")   // processor → coordinator: register a transactional id, bump its epoch
	MsgProducerID       = roles.Message("producer-id")        // coordinator → processor: producer id and the new epoch
	MsgAddParts         = roles.Message("add-partitions")     // processor → coordinator: begin a transaction on the output and offsets partitions
	MsgAddPartsOK       = roles.Message("add-partitions-ok")  // coordinator → processor
	MsgTxnOffsets       = roles.Message("txn-offset-commit")  // processor → broker: consumed position, pending until the commit marker
	MsgOffsetCommit     = roles.Message("offset-commit")      // processor → broker: consumed position, committed at once (at-least-once)
	MsgOffsetAck        = roles.Message("offset-commit-ack")  // broker → processor
	MsgOffsetFetch      = roles.Message("offset-fetch")       // processor → broker: where did my group stop?
	MsgOffsets          = roles.Message("offsets")            // broker → processor: the committed position
	MsgEndTxn           = roles.Message("end-txn")            // processor → coordinator: commit or abort
	MsgEndTxnResult     = roles.Message("end-txn-result")     // coordinator → processor: done, with the bumped epoch
	MsgMarkers          = roles.Message("write-markers")      // coordinator → broker: write COMMIT or ABORT control records
	MsgMarkersDone      = roles.Message("markers-written")    // broker → coordinator
	MsgDBWrite          = roles.Message("db-write")           // writer → external database: a row (Key transaction, 0 = autocommit)
	MsgDBPrepare        = roles.Message("db-prepare")         // sink → database: pre-commit a transaction
	MsgDBPrepared       = roles.Message("db-prepared")        // database → sink
	MsgDBCommit         = roles.Message("db-commit")          // sink → database: commit a prepared transaction (idempotent)
	MsgDBAbortLingering = roles.Message("db-abort-lingering") // sink → database: abort transactions of older attempts
	MsgDBWriteAck       = roles.Message("db-write-ack")       // database → writer (autocommit writes only)
	MsgDBCommitFailed   = roles.Message("db-commit-failed")   // database → sink: the transaction to commit was already aborted (timed out)
	MsgJoinGroup        = roles.Message("join-group")         // processor → group coordinator (the broker): a place in the group
	MsgAssignment       = roles.Message("assignment")         // group coordinator → processor: generation, owner or standby
	MsgHeartbeat        = roles.Message("heartbeat")          // owner → group coordinator: alive in this generation
	MsgHeartbeatErr     = roles.Message("heartbeat-error")    // group coordinator → processor: ILLEGAL_GENERATION, rejoin
	MsgLeaveGroup       = roles.Message("leave-group")        // processor → group coordinator: done, hand the partition on
	MsgVerifyTxn        = roles.Message("verify-txn")         // partition leader → coordinator: is this producer's first write in an ongoing transaction? (KIP-890 part 1)
	MsgTxnVerified      = roles.Message("txn-verified")       // coordinator → partition leader: yes (0), or INVALID_TXN_STATE / INVALID_PRODUCER_EPOCH
	MsgBatch            = roles.Message("produce-batch")      // idempotent producer → partition leader: one record, with (pid, epoch, partition, seq)
	MsgBatchAck         = roles.Message("produce-batch-ack")  // partition leader → idempotent producer

	TimerTimeout      = roles.Timer("kafka-timeout")     // the processor's request timeout (Key: which wait)
	TimerTxnTimeout   = roles.Timer("kafka-txn-timeout") // the coordinator's transaction timeout (Key: transactional id, Attempt: epoch)
	TimerSession      = roles.Timer("kafka-session")     // the group coordinator's session timeout (Key: generation, Attempt: beats)
	TimerHeartbeat    = roles.Timer("kafka-heartbeat")   // the member's next heartbeat (Key: generation)
	TimerDBTxnTimeout = roles.Timer("db-txn-timeout")    // the external database's transaction timeout (Key: transaction)

	// SinkOutput counts output records where a downstream reader sees
	// them: under read_committed only once their transaction committed.
	SinkOutput = roles.Sink("kafka-output")
	// SinkDBRows counts rows committed in the external database.
	SinkDBRows = roles.Sink("db-rows")
	// SinkPartitionRecords counts records appended to the partitions of
	// the idempotent producer's leader.
	SinkPartitionRecords = roles.Sink("partition-records")

	PointAfterProduce  = roles.Point("after-produce")        // output record sent, transaction not committed
	PointBeforeProduce = roles.Point("before-produce")       // a group member has the input record, its output not yet sent
	PointAfterBatch    = roles.Point("after-batch")          // the idempotent producer sent a batch, not yet acknowledged
	PointAfterExternal = roles.Point("after-external-write") // external database written, transaction not committed
	PointBeforeCommit  = roles.Point("before-commit")        // outputs acknowledged, transaction (or offset commit) not yet sent
	PointAfterAbort    = roles.Point("after-abort")          // a transaction aborted by the client, nothing written since (txn-id incarnation only)
)

// Topics of the Kafka family. Each has its own log table, keyed by offset
// (the first record is at offset 1).
const (
	topicInput  int64 = 1
	topicOutput int64 = 2
)

// Results of a transaction, in end-txn and write-markers.
const (
	txnCommit int64 = 1
	txnAbort  int64 = 2
)

// Isolation levels of a fetch.
const (
	readUncommitted int64 = 0
	readCommitted   int64 = 1
)

// Kafka error codes the roles answer with (the protocol's own numbers).
const (
	kafkaOutOfOrderSequence   = 45
	kafkaInvalidProducerEpoch = 47 // a partition leader fences an old epoch
	kafkaInvalidTxnState      = 48
	kafkaConcurrentTxns       = 51
	kafkaUnstableOffsetCommit = 88 // offsets of an open transaction are pending
	kafkaProducerFenced       = 90 // the coordinator fences an old epoch
	kafkaIllegalGeneration    = 22 // the group moved on: the member lost its partition
	kafkaUnknownMemberID      = 25 // the group removed the member (its session expired)
)

// Log record states. The COMMITTED/ABORTED state of a data record is the
// model's stand-in for Kafka's aborted-transaction index: the record itself
// is immutable in Kafka, its fate is decided by the later control record.
const (
	logPlain        int32 = iota + 1 // non-transactional: visible at once
	logOpen                          // transactional, its transaction still open
	logCommitted                     // its transaction committed
	logAborted                       // its transaction aborted
	logCommitMarker                  // control record: COMMIT
	logAbortMarker                   // control record: ABORT
)

var logStates = []string{"", "RECORD", "OPEN", "COMMITTED", "ABORTED", "COMMIT-MARKER", "ABORT-MARKER"}

// logTableName names the broker's output log (the only one with
// transactional records); invariants find it by this name.
const logTableName = "kafka-log"
