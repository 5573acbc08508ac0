package kafka

import "github.com/oncesim/once/sim"

// Typed views of the external database's messages, exported because the
// flink sink writes the same database. A transaction id is an opaque
// name chosen by the writer; 0 means autocommit.

// DBWrite writes one row. Slots: Op, Attempt (the writer's attempt: of
// the delivery for an autocommit write, of the job for a transactional
// one, which the database keeps with the transaction), Key Txn (0 =
// autocommit), Payload Row (the row's natural key).
type DBWrite struct {
	Op      sim.OpID
	Attempt int32
	Txn     int64
	Row     int64
}

// Encode returns the db-write message.
func (w DBWrite) Encode() sim.Message {
	return sim.Message{Kind: MsgDBWrite, Op: w.Op, Attempt: w.Attempt, Key: w.Txn, Payload: w.Row}
}

// DecodeDBWrite reads a db-write message.
func DecodeDBWrite(m sim.Message) DBWrite {
	return DBWrite{Op: m.Op, Attempt: m.Attempt, Txn: m.Key, Row: m.Payload}
}

// DBWriteAck acknowledges an autocommit write. Slots: Op and Attempt
// echoed.
type DBWriteAck struct {
	Op      sim.OpID
	Attempt int32
}

// Encode returns the db-write-ack message.
func (a DBWriteAck) Encode() sim.Message {
	return sim.Message{Kind: MsgDBWriteAck, Op: a.Op, Attempt: a.Attempt}
}

// DecodeDBWriteAck reads a db-write-ack message.
func DecodeDBWriteAck(m sim.Message) DBWriteAck { return DBWriteAck{Op: m.Op, Attempt: m.Attempt} }

// DBPrepare pre-commits a transaction (db-prepare) and confirms it
// (db-prepared, the same fields echoed). Slots: Key Txn, Payload
// Checkpoint (the checkpoint whose barrier closed it), Attempt (the job
// attempt, kept with a transaction the prepare opens; 0 in db-prepared).
type DBPrepare struct {
	Txn        int64
	Checkpoint int64
	Attempt    int32
}

// Encode returns the message of the given kind (MsgDBPrepare or
// MsgDBPrepared).
func (p DBPrepare) Encode(kind sim.MsgKind) sim.Message {
	return sim.Message{Kind: kind, Key: p.Txn, Payload: p.Checkpoint, Attempt: p.Attempt}
}

// DecodeDBPrepare reads a db-prepare or db-prepared message.
func DecodeDBPrepare(m sim.Message) DBPrepare {
	return DBPrepare{Txn: m.Key, Checkpoint: m.Payload, Attempt: m.Attempt}
}

// DBCommit commits a prepared transaction. Slots: Key Txn, Attempt (the
// job attempt).
type DBCommit struct {
	Txn     int64
	Attempt int32
}

// Encode returns the db-commit message.
func (c DBCommit) Encode() sim.Message {
	return sim.Message{Kind: MsgDBCommit, Key: c.Txn, Attempt: c.Attempt}
}

// EncodeFailed returns the database's db-commit-failed answer: the
// transaction to commit was already aborted. Same slots as db-commit.
func (c DBCommit) EncodeFailed() sim.Message {
	return sim.Message{Kind: MsgDBCommitFailed, Key: c.Txn, Attempt: c.Attempt}
}

// DecodeDBCommit reads a db-commit or db-commit-failed message.
func DecodeDBCommit(m sim.Message) DBCommit { return DBCommit{Txn: m.Key, Attempt: m.Attempt} }

// DBAbortLingering aborts every open or prepared transaction of a job
// attempt older than JobAttempt. Slots: Key JobAttempt, Attempt (the job
// attempt that sends it, the same number).
type DBAbortLingering struct {
	JobAttempt int64
	Attempt    int32
}

// Encode returns the db-abort-lingering message.
func (a DBAbortLingering) Encode() sim.Message {
	return sim.Message{Kind: MsgDBAbortLingering, Key: a.JobAttempt, Attempt: a.Attempt}
}

// DecodeDBAbortLingering reads a db-abort-lingering message.
func DecodeDBAbortLingering(m sim.Message) DBAbortLingering {
	return DBAbortLingering{JobAttempt: m.Key, Attempt: m.Attempt}
}

// dbPendingRow is a row written inside a transaction, not yet committed.
// Slots: Value Op, Aux Txn, Status Row (its natural key, within int32).
type dbPendingRow struct {
	Op  sim.OpID
	Txn int64
	Row int32
	At  sim.Time
}

func (p dbPendingRow) encode() sim.Record {
	return sim.Record{Value: int64(p.Op), Aux: p.Txn, Status: p.Row, At: p.At}
}

func decodeDBPendingRow(r sim.Record) dbPendingRow {
	return dbPendingRow{Op: sim.OpID(r.Value), Txn: r.Aux, Row: r.Status, At: r.At}
}

// dbTxnRow is a transaction of the database. Slots: State (dbTxnOpen …
// dbTxnAborted), Value JobAttempt (of the write or prepare that opened
// it; db-abort-lingering compares it).
type dbTxnRow struct {
	State      int32
	JobAttempt int64
	At         sim.Time
}

func (t dbTxnRow) encode() sim.Record {
	return sim.Record{State: t.State, Value: t.JobAttempt, At: t.At}
}

func decodeDBTxnRow(r sim.Record) dbTxnRow {
	return dbTxnRow{State: r.State, JobAttempt: r.Value, At: r.At}
}
