package kafka

import "github.com/oncesim/once/sim"

// Typed rows of the family's tables: each names the fields of one table's
// rows and says which slot of sim.Record carries each. At is the time the row was
// written: a row read, changed and put back keeps it, a zero At is stamped
// with the current time by the store (see sim.Context.Put).

// logRow is a record of the broker's log. Slots: State (logPlain …
// logAbortMarker), Status Epoch (of a transactional record or a control
// record), Value Op (0 for a control record), Aux PID (the producer id;
// 0 for a plain record). The record's sequence number is not kept: a fifth
// field, and nothing reads it (the producers table holds the last one).
type logRow struct {
	State int32
	Epoch int32
	Op    sim.OpID
	PID   int64
	At    sim.Time
}

func (l logRow) encode() sim.Record {
	return sim.Record{State: l.State, Status: l.Epoch, Value: int64(l.Op), Aux: l.PID, At: l.At}
}

func decodeLogRow(r sim.Record) logRow {
	return logRow{State: r.State, Epoch: r.Status, Op: sim.OpID(r.Value), PID: r.Aux, At: r.At}
}

// producerRow is what a partition knows of an idempotent producer. Slots:
// Status Epoch (the newest seen), Aux LastSeq (of that epoch), Value
// LastOffset (where that sequence was appended in the output topic).
type producerRow struct {
	Epoch      int32
	LastSeq    int64
	LastOffset int64
	At         sim.Time
}

func (p producerRow) encode() sim.Record {
	return sim.Record{Status: p.Epoch, Aux: p.LastSeq, Value: p.LastOffset, At: p.At}
}

func decodeProducerRow(r sim.Record) producerRow {
	return producerRow{Epoch: r.Status, LastSeq: r.Aux, LastOffset: r.Value, At: r.At}
}

// pendingRow holds a transaction's consumer offsets. Slots: State
// (offsetsPending, offsetsCommitted, offsetsDiscarded), Value Position
// (the next input position), Status Epoch.
type pendingRow struct {
	State    int32
	Position int64
	Epoch    int32
	At       sim.Time
}

func (p pendingRow) encode() sim.Record {
	return sim.Record{State: p.State, Value: p.Position, Status: p.Epoch, At: p.At}
}

func decodePendingRow(r sim.Record) pendingRow {
	return pendingRow{State: r.State, Position: r.Value, Epoch: r.Status, At: r.At}
}

// parkedRow is a fetch waiting for a visible record. Slots: Value
// Position, Aux Topic, Status Isolation.
type parkedRow struct {
	Position  int64
	Topic     int64
	Isolation int32
	At        sim.Time
}

func (p parkedRow) encode() sim.Record {
	return sim.Record{Value: p.Position, Aux: p.Topic, Status: p.Isolation, At: p.At}
}

func decodeParkedRow(r sim.Record) parkedRow {
	return parkedRow{Position: r.Value, Topic: r.Aux, Isolation: r.Status, At: r.At}
}

// txnLogRow is the coordinator's state of a transactional id. Slots:
// State (txnEmpty … txnCompleteAbort), Value PID, Status Epoch.
type txnLogRow struct {
	State int32
	PID   int64
	Epoch int32
	At    sim.Time
}

func (t txnLogRow) encode() sim.Record {
	return sim.Record{State: t.State, Value: t.PID, Status: t.Epoch, At: t.At}
}

func decodeTxnLogRow(r sim.Record) txnLogRow {
	return txnLogRow{State: r.State, PID: r.Value, Epoch: r.Status, At: r.At}
}

// replyRow is an answer the coordinator owes once markers are written.
// Slots: Value Node (who asked), Aux TxnID, Status Corr.
type replyRow struct {
	Node  sim.NodeID
	TxnID int64
	Corr  int32
	At    sim.Time
}

func (o replyRow) encode() sim.Record {
	return sim.Record{Value: int64(o.Node), Aux: o.TxnID, Status: o.Corr, At: o.At}
}

func decodeReplyRow(r sim.Record) replyRow {
	return replyRow{Node: sim.NodeID(r.Value), TxnID: r.Aux, Corr: r.Status, At: r.At}
}

// runRow is the processor's loop. Slots: State Phase (kpInit … kpDone),
// Value Position (the next input position), Status InTxn (records
// processed in this transaction or batch), Aux Corr (correlation id of the
// current wait).
type runRow struct {
	Phase    int32
	Position int64
	InTxn    int32
	Corr     int64
	At       sim.Time
}

func (r runRow) encode() sim.Record {
	return sim.Record{State: r.Phase, Value: r.Position, Status: r.InTxn, Aux: r.Corr, At: r.At}
}

func decodeRunRow(r sim.Record) runRow {
	return runRow{Phase: r.State, Position: r.Value, InTxn: r.Status, Corr: r.Aux, At: r.At}
}

// clientRow is the processor's producer identity. Slots: Value PID,
// Status Epoch, Aux Seq (the last sequence used).
type clientRow struct {
	PID   int64
	Epoch int32
	Seq   int64
	At    sim.Time
}

func (c clientRow) encode() sim.Record {
	return sim.Record{Value: c.PID, Status: c.Epoch, Aux: c.Seq, At: c.At}
}

func decodeClientRow(r sim.Record) clientRow {
	return clientRow{PID: r.Value, Epoch: r.Status, Seq: r.Aux, At: r.At}
}

// currentRow is the input record being processed. Slots: Value Offset,
// Aux Op, Status Attempt (the produce's send attempt).
type currentRow struct {
	Offset  int64
	Op      sim.OpID
	Attempt int32
	At      sim.Time
}

func (c currentRow) encode() sim.Record {
	return sim.Record{Value: c.Offset, Aux: int64(c.Op), Status: c.Attempt, At: c.At}
}

func decodeCurrentRow(r sim.Record) currentRow {
	return currentRow{Offset: r.Value, Op: sim.OpID(r.Aux), Attempt: r.Status, At: r.At}
}

// groupRow is a consumer group's committed position. Slots: State
// (always groupCommitted), Value Position (the next input position).
type groupRow struct {
	Position int64
	At       sim.Time
}

const groupCommitted int32 = 1

func (g groupRow) encode() sim.Record {
	return sim.Record{State: groupCommitted, Value: g.Position, At: g.At}
}

func decodeGroupRow(r sim.Record) groupRow { return groupRow{Position: r.Value, At: r.At} }

func (p parkedRow) fetch() fetch {
	return fetch{Position: p.Position, Topic: p.Topic, Isolation: int64(p.Isolation)}
}
