package flink

import "github.com/oncesim/once/sim"

// Typed rows of the family's tables: each names the fields of one table's
// rows and says which slot of sim.Record carries each. At is the time the
// row was written: a row read, changed and put back keeps it, a zero At is
// stamped with the current time by the store (see sim.Context.Put).

// jobRow is the job manager's job (row fjRowJob). Slots: State (jobCreated
// … jobFinished), Value Attempt, Aux NextCheckpoint (the id the next
// trigger gets), Status Completed (the latest completed checkpoint).
type jobRow struct {
	State          int32
	Attempt        int64
	NextCheckpoint int64
	Completed      int32
	At             sim.Time
}

func (j jobRow) encode() sim.Record {
	return sim.Record{State: j.State, Value: j.Attempt, Aux: j.NextCheckpoint, Status: j.Completed, At: j.At}
}

func decodeJobRow(r sim.Record) jobRow {
	return jobRow{State: r.State, Attempt: r.Value, NextCheckpoint: r.Aux, Completed: r.Status, At: r.At}
}

// sinkSeenRow is what the job manager knows of the sink (row fjRowSink).
// Slots: Value Boot (the newest boot registered), Aux Committed (the
// newest checkpoint the sink confirmed committing).
type sinkSeenRow struct {
	Boot      int64
	Committed int64
	At        sim.Time
}

func (s sinkSeenRow) encode() sim.Record {
	return sim.Record{Value: s.Boot, Aux: s.Committed, At: s.At}
}

func decodeSinkSeenRow(r sim.Record) sinkSeenRow {
	return sinkSeenRow{Boot: r.Value, Committed: r.Aux, At: r.At}
}

// checkpointRow is a checkpoint. Slots: State (ckptPending …
// ckptCompleted), Status Attempt (the attempt that triggered it), Value
// Offset (the source's snapshot). The sink's snapshot is a
// checkpointTxnsRow of the same id in another table.
type checkpointRow struct {
	State   int32
	Attempt int32
	Offset  int64
	At      sim.Time
}

func (c checkpointRow) encode() sim.Record {
	return sim.Record{State: c.State, Status: c.Attempt, Value: c.Offset, At: c.At}
}

func decodeCheckpointRow(r sim.Record) checkpointRow {
	return checkpointRow{State: r.State, Attempt: r.Status, Offset: r.Value, At: r.At}
}

// checkpointTxnsRow is the sink's snapshot in a checkpoint: its
// pre-committed transactions not yet committed, and its operator state.
// Slots: Value FirstTxn, Aux LastTxn (0 = none), Status State (records
// the operator state counted; 0 without one).
type checkpointTxnsRow struct {
	FirstTxn int64
	LastTxn  int64
	State    int32
	At       sim.Time
}

func (c checkpointTxnsRow) encode() sim.Record {
	return sim.Record{Value: c.FirstTxn, Aux: c.LastTxn, Status: c.State, At: c.At}
}

func decodeCheckpointTxnsRow(r sim.Record) checkpointTxnsRow {
	return checkpointTxnsRow{FirstTxn: r.Value, LastTxn: r.Aux, State: r.Status, At: r.At}
}

// sinkRow is the sink task's state. Slots: Value Attempt (0 = not
// deployed), Aux OpenTxn (the transaction records go into), Status Opened
// (transactions opened in this attempt).
type sinkRow struct {
	Attempt int64
	OpenTxn int64
	Opened  int32
	At      sim.Time
}

func (s sinkRow) encode() sim.Record {
	return sim.Record{Value: s.Attempt, Aux: s.OpenTxn, Status: s.Opened, At: s.At}
}

func decodeSinkRow(r sim.Record) sinkRow {
	return sinkRow{Attempt: r.Value, OpenTxn: r.Aux, Opened: r.Status, At: r.At}
}

// pendingTxnRow is a transaction the sink pre-commits. Slots: State
// (pendPreparing, pendPrepared, pendCommitted), Value Checkpoint (whose
// barrier closed it), Status Counted (the operator state at that barrier,
// the snapshot its acknowledgement carries; 0 without one).
type pendingTxnRow struct {
	State      int32
	Checkpoint int64
	Counted    int32
	At         sim.Time
}

func (p pendingTxnRow) encode() sim.Record {
	return sim.Record{State: p.State, Value: p.Checkpoint, Status: p.Counted, At: p.At}
}

func decodePendingTxnRow(r sim.Record) pendingTxnRow {
	return pendingTxnRow{State: r.State, Checkpoint: r.Value, Counted: r.Status, At: r.At}
}

// sourceRow is the source task's state (row fsRowRun). Slots: State
// Emitting (1 once it emits), Value Attempt (deployed), Aux Offset
// (emitted so far), Status Subscribed (the attempt the sink asked for).
type sourceRow struct {
	Emitting   int32
	Attempt    int64
	Offset     int64
	Subscribed int32
	At         sim.Time
}

func (s sourceRow) encode() sim.Record {
	return sim.Record{State: s.Emitting, Value: s.Attempt, Aux: s.Offset, Status: s.Subscribed, At: s.At}
}

func decodeSourceRow(r sim.Record) sourceRow {
	return sourceRow{Emitting: r.State, Attempt: r.Value, Offset: r.Aux, Subscribed: r.Status, At: r.At}
}
