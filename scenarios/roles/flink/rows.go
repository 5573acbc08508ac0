package flink

import "github.com/oncesim/once/sim"

// Typed rows of the family's tables: each names the fields of one table's
// rows and says, in slot tags, which slot of sim.Record carries each
// (viewgen writes the codecs). At is the time the
// row was written: a row read, changed and put back keeps it, a zero At is
// stamped with the current time by the store (see sim.Context.Put).

// jobRow is the job manager's job (row fjRowJob). Slots: State (jobCreated
// … jobFinished), Value Attempt, Aux NextCheckpoint (the id the next
// trigger gets), Status Completed (the latest completed checkpoint).
//
//viewgen:record
type jobRow struct {
	State          int32    `slot:"State"`
	Attempt        int64    `slot:"Value"`
	NextCheckpoint int64    `slot:"Aux"`
	Completed      int32    `slot:"Status"`
	At             sim.Time `slot:"At"`
}

// sinkSeenRow is what the job manager knows of the sink (row fjRowSink).
// Slots: Value Boot (the newest boot registered), Aux Committed (the
// newest checkpoint the sink confirmed committing).
//
//viewgen:record
type sinkSeenRow struct {
	Boot      int64    `slot:"Value"`
	Committed int64    `slot:"Aux"`
	At        sim.Time `slot:"At"`
}

// checkpointRow is a checkpoint. Slots: State (ckptPending …
// ckptCompleted), Status Attempt (the attempt that triggered it), Value
// Offset (the source's snapshot). The sink's snapshot is a
// checkpointTxnsRow of the same id in another table.
//
//viewgen:record
type checkpointRow struct {
	State   int32    `slot:"State"`
	Attempt int32    `slot:"Status"`
	Offset  int64    `slot:"Value"`
	At      sim.Time `slot:"At"`
}

// checkpointTxnsRow is the sink's snapshot in a checkpoint: its
// pre-committed transactions not yet committed, and its operator state.
// Slots: Value FirstTxn, Aux LastTxn (0 = none), Status State (records
// the operator state counted; 0 without one).
//
//viewgen:record
type checkpointTxnsRow struct {
	FirstTxn int64    `slot:"Value"`
	LastTxn  int64    `slot:"Aux"`
	State    int32    `slot:"Status"`
	At       sim.Time `slot:"At"`
}

// sinkRow is the sink task's state. Slots: Value Attempt (0 = not
// deployed), Aux OpenTxn (the transaction records go into), Status Opened
// (transactions opened in this attempt).
//
//viewgen:record
type sinkRow struct {
	Attempt int64    `slot:"Value"`
	OpenTxn int64    `slot:"Aux"`
	Opened  int32    `slot:"Status"`
	At      sim.Time `slot:"At"`
}

// pendingTxnRow is a transaction the sink pre-commits. Slots: State
// (pendPreparing, pendPrepared, pendCommitted), Value Checkpoint (whose
// barrier closed it), Status Counted (the operator state at that barrier,
// the snapshot its acknowledgement carries; 0 without one).
//
//viewgen:record
type pendingTxnRow struct {
	State      int32    `slot:"State"`
	Checkpoint int64    `slot:"Value"`
	Counted    int32    `slot:"Status"`
	At         sim.Time `slot:"At"`
}

// sourceRow is the source task's state (row fsRowRun). Slots: State
// Emitting (1 once it emits), Value Attempt (deployed), Aux Offset
// (emitted so far), Status Subscribed (the attempt the sink asked for).
//
//viewgen:record
type sourceRow struct {
	Emitting   int32    `slot:"State"`
	Attempt    int64    `slot:"Value"`
	Offset     int64    `slot:"Aux"`
	Subscribed int32    `slot:"Status"`
	At         sim.Time `slot:"At"`
}
