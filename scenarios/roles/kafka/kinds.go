// Package kafka is the Kafka-transactions family: a read-process-write
// processor, the partition leader, the transaction coordinator, downstream
// readers, and the external database (also written by the flink family).
package kafka

import "github.com/oncesim/once/sim"

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
	MsgFetch            sim.MsgKind // consumer → broker: the next visible record from a position
	MsgRecord           sim.MsgKind // broker → consumer: one record
	MsgProduce          sim.MsgKind // processor → broker: append an output record
	MsgProduceAck       sim.MsgKind // broker → processor: appended (or fenced, or a duplicate)
	MsgInitPID          sim.MsgKind // processor → coordinator: register a transactional id, bump its epoch
	MsgProducerID       sim.MsgKind // coordinator → processor: producer id and the new epoch
	MsgAddParts         sim.MsgKind // processor → coordinator: begin a transaction on the output and offsets partitions
	MsgAddPartsOK       sim.MsgKind // coordinator → processor
	MsgTxnOffsets       sim.MsgKind // processor → broker: consumed position, pending until the commit marker
	MsgOffsetCommit     sim.MsgKind // processor → broker: consumed position, committed at once (at-least-once)
	MsgOffsetAck        sim.MsgKind // broker → processor
	MsgOffsetFetch      sim.MsgKind // processor → broker: where did my group stop?
	MsgOffsets          sim.MsgKind // broker → processor: the committed position
	MsgEndTxn           sim.MsgKind // processor → coordinator: commit or abort
	MsgEndTxnResult     sim.MsgKind // coordinator → processor: done, with the bumped epoch
	MsgMarkers          sim.MsgKind // coordinator → broker: write COMMIT or ABORT control records
	MsgMarkersDone      sim.MsgKind // broker → coordinator
	MsgDBWrite          sim.MsgKind // writer → external database: a row (Key transaction, 0 = autocommit)
	MsgDBPrepare        sim.MsgKind // sink → database: pre-commit a transaction
	MsgDBPrepared       sim.MsgKind // database → sink
	MsgDBCommit         sim.MsgKind // sink → database: commit a prepared transaction (idempotent)
	MsgDBAbortLingering sim.MsgKind // sink → database: abort transactions of older attempts
	MsgDBWriteAck       sim.MsgKind // database → writer (autocommit writes only)
	MsgDBCommitFailed   sim.MsgKind // database → sink: the transaction to commit was already aborted (timed out)
	MsgJoinGroup        sim.MsgKind // processor → group coordinator (the broker): a place in the group
	MsgAssignment       sim.MsgKind // group coordinator → processor: generation, owner or standby
	MsgHeartbeat        sim.MsgKind // owner → group coordinator: alive in this generation
	MsgHeartbeatErr     sim.MsgKind // group coordinator → processor: ILLEGAL_GENERATION, rejoin
	MsgLeaveGroup       sim.MsgKind // processor → group coordinator: done, hand the partition on
	MsgVerifyTxn        sim.MsgKind // partition leader → coordinator: is this producer's first write in an ongoing transaction? (KIP-890 part 1)
	MsgTxnVerified      sim.MsgKind // coordinator → partition leader: yes (0), or INVALID_TXN_STATE / INVALID_PRODUCER_EPOCH
	MsgBatch            sim.MsgKind // idempotent producer → partition leader: one record, with (pid, epoch, partition, seq)
	MsgBatchAck         sim.MsgKind // partition leader → idempotent producer

	TimerTimeout      sim.TimerKind // the processor's request timeout (Key: which wait)
	TimerTxnTimeout   sim.TimerKind // the coordinator's transaction timeout (Key: transactional id, Attempt: epoch)
	TimerSession      sim.TimerKind // the group coordinator's session timeout (Key: generation, Attempt: beats)
	TimerHeartbeat    sim.TimerKind // the member's next heartbeat (Key: generation)
	TimerDBTxnTimeout sim.TimerKind // the external database's transaction timeout (Key: transaction)

	// SinkOutput counts output records where a downstream reader sees
	// them: under read_committed only once their transaction committed.
	SinkOutput sim.SinkID
	// SinkDBRows counts rows committed in the external database.
	SinkDBRows sim.SinkID
	// SinkPartitionRecords counts records appended to the partitions of
	// the idempotent producer's leader.
	SinkPartitionRecords sim.SinkID

	PointAfterProduce  sim.PointID // output record sent, transaction not committed
	PointBeforeProduce sim.PointID // a group member has the input record, its output not yet sent
	PointAfterBatch    sim.PointID // the idempotent producer sent a batch, not yet acknowledged
	PointAfterExternal sim.PointID // external database written, transaction not committed
	PointBeforeCommit  sim.PointID // outputs acknowledged, transaction (or offset commit) not yet sent
	PointAfterAbort    sim.PointID // a transaction aborted by the client, nothing written since (txn-id incarnation only)
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
