package kafka

import "github.com/oncesim/once/sim"

// Typed views of the external database's messages, exported because the
// flink sink writes the same database. A transaction id is an opaque
// name chosen by the writer; 0 means autocommit.

// DBWrite writes one row. Slots: Op, Attempt (the writer's attempt: of
// the delivery for an autocommit write, of the job for a transactional
// one, which the database keeps with the transaction), Key Txn (0 =
// autocommit), Payload Row (the row's natural key).
//
//viewgen:message kind=MsgDBWrite
type DBWrite struct {
	Op      sim.OpID `slot:"Op"`
	Attempt int32    `slot:"Attempt"`
	Txn     int64    `slot:"Key"`
	Row     int64    `slot:"Payload"`
}

// DBWriteAck acknowledges an autocommit write. Slots: Op and Attempt
// echoed.
//
//viewgen:message kind=MsgDBWriteAck
type DBWriteAck struct {
	Op      sim.OpID `slot:"Op"`
	Attempt int32    `slot:"Attempt"`
}

// DBPrepare pre-commits a transaction (db-prepare) and confirms it
// (db-prepared, the same fields echoed). Slots: Key Txn, Payload
// Checkpoint (the checkpoint whose barrier closed it), Attempt (the job
// attempt, kept with a transaction the prepare opens; 0 in db-prepared).
//
//viewgen:message kind=caller
type DBPrepare struct {
	Txn        int64 `slot:"Key"`
	Checkpoint int64 `slot:"Payload"`
	Attempt    int32 `slot:"Attempt"`
}

// DBCommit commits a prepared transaction. Slots: Key Txn, Attempt (the
// job attempt).
//
//viewgen:message kind=MsgDBCommit
type DBCommit struct {
	Txn     int64 `slot:"Key"`
	Attempt int32 `slot:"Attempt"`
}

// EncodeFailed returns the database's db-commit-failed answer: the
// transaction to commit was already aborted. Same slots as db-commit.
func (v DBCommit) EncodeFailed() sim.Message {
	m := v.Encode()
	m.Kind = MsgDBCommitFailed
	return m
}

// DBAbortLingering aborts every open or prepared transaction of a job
// attempt older than JobAttempt. Slots: Key JobAttempt, Attempt (the job
// attempt that sends it, the same number).
//
//viewgen:message kind=MsgDBAbortLingering
type DBAbortLingering struct {
	JobAttempt int64 `slot:"Key"`
	Attempt    int32 `slot:"Attempt"`
}

// dbPendingRow is a row written inside a transaction, not yet committed.
// Slots: Value Op, Aux Txn, Status Row (its natural key, within int32).
//
//viewgen:record decode=decodeDBPendingRow
type dbPendingRow struct {
	Op  sim.OpID `slot:"Value"`
	Txn int64    `slot:"Aux"`
	Row int32    `slot:"Status"`
	At  sim.Time `slot:"At"`
}

// dbTxnRow is a transaction of the database. Slots: State (dbTxnOpen …
// dbTxnAborted), Value JobAttempt (of the write or prepare that opened
// it; db-abort-lingering compares it).
//
//viewgen:record decode=decodeDBTxnRow
type dbTxnRow struct {
	State      int32    `slot:"State"`
	JobAttempt int64    `slot:"Value"`
	At         sim.Time `slot:"At"`
}
