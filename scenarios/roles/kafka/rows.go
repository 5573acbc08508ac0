package kafka

import "github.com/oncesim/once/sim"

// Typed rows of the family's tables: each names the fields of one table's
// rows and says, in slot tags, which slot of sim.Record carries each
// (viewgen writes the codecs). At is the time the row was
// written: a row read, changed and put back keeps it, a zero At is stamped
// with the current time by the store (see sim.Context.Put).

// logRow is a record of the broker's log. Slots: State (logPlain …
// logAbortMarker), Status Epoch (of a transactional record or a control
// record), Value Op (0 for a control record), Aux PID (the producer id;
// 0 for a plain record). The record's sequence number is not kept: a fifth
// field, and nothing reads it (the producers table holds the last one).
//
//viewgen:record
type logRow struct {
	State int32    `slot:"State"`
	Epoch int32    `slot:"Status"`
	Op    sim.OpID `slot:"Value"`
	PID   int64    `slot:"Aux"`
	At    sim.Time `slot:"At"`
}

// producerRow is what a partition knows of an idempotent producer. Slots:
// Status Epoch (the newest seen), Aux LastSeq (of that epoch), Value
// LastOffset (where that sequence was appended in the output topic). The
// idempotent partition leader keeps one per producer and partition: the
// batches it can recognise as duplicates are the last idemWindow
// sequences up to LastSeq (appended sequences of an epoch are
// consecutive, so the window is a range).
//
//viewgen:record
type producerRow struct {
	Epoch      int32    `slot:"Status"`
	LastSeq    int64    `slot:"Aux"`
	LastOffset int64    `slot:"Value"`
	At         sim.Time `slot:"At"`
}

// pendingRow holds a transaction's consumer offsets. Slots: State
// (offsetsPending, offsetsCommitted, offsetsDiscarded), Value Position
// (the next input position), Status Epoch.
//
//viewgen:record
type pendingRow struct {
	State    int32    `slot:"State"`
	Position int64    `slot:"Value"`
	Epoch    int32    `slot:"Status"`
	At       sim.Time `slot:"At"`
}

// parkedRow is a fetch waiting for a visible record. Slots: Value
// Position, Aux Topic, Status Isolation.
//
//viewgen:record
type parkedRow struct {
	Position  int64    `slot:"Value"`
	Topic     int64    `slot:"Aux"`
	Isolation int32    `slot:"Status"`
	At        sim.Time `slot:"At"`
}

// txnLogRow is the coordinator's state of a transactional id. Slots:
// State (txnEmpty … txnCompleteAbort), Value PID, Status Epoch.
//
//viewgen:record
type txnLogRow struct {
	State int32    `slot:"State"`
	PID   int64    `slot:"Value"`
	Epoch int32    `slot:"Status"`
	At    sim.Time `slot:"At"`
}

// replyRow is an answer the coordinator owes once markers are written.
// Slots: Value Node (who asked), Aux TxnID, Status Corr.
//
//viewgen:record
type replyRow struct {
	Node  sim.NodeID `slot:"Value"`
	TxnID int64      `slot:"Aux"`
	Corr  int32      `slot:"Status"`
	At    sim.Time   `slot:"At"`
}

// runRow is the processor's loop. Slots: State Phase (kpInit … kpDone),
// Value Position (the next input position), Status InTxn (records
// processed in this transaction or batch), Aux Corr (correlation id of the
// current wait).
//
//viewgen:record
type runRow struct {
	Phase    int32    `slot:"State"`
	Position int64    `slot:"Value"`
	InTxn    int32    `slot:"Status"`
	Corr     int64    `slot:"Aux"`
	At       sim.Time `slot:"At"`
}

// clientRow is the processor's producer identity. Slots: Value PID,
// Status Epoch, Aux Seq (the last sequence used).
//
//viewgen:record
type clientRow struct {
	PID   int64    `slot:"Value"`
	Epoch int32    `slot:"Status"`
	Seq   int64    `slot:"Aux"`
	At    sim.Time `slot:"At"`
}

// currentRow is the input record being processed. Slots: Value Offset,
// Aux Op, Status Attempt (the produce's send attempt).
//
//viewgen:record
type currentRow struct {
	Offset  int64    `slot:"Value"`
	Op      sim.OpID `slot:"Aux"`
	Attempt int32    `slot:"Status"`
	At      sim.Time `slot:"At"`
}

// groupRow is a consumer group's committed position. Slots: State
// (always groupCommitted), Value Position (the next input position).
//
//viewgen:record State=groupCommitted
type groupRow struct {
	Position int64    `slot:"Value"`
	At       sim.Time `slot:"At"`
}

const groupCommitted int32 = 1

func (p parkedRow) fetch() fetch {
	return fetch{Position: p.Position, Topic: p.Topic, Isolation: int64(p.Isolation)}
}
