package kafka

import "github.com/oncesim/once/sim"

// Typed views of the idempotent producer's protocol (idemproducer.go,
// idemleader.go) and of its rows.

// batch is one produce request of the idempotent producer: a batch of
// one record. Slots: Op, Attempt (send attempt), Key PID (0: a producer
// without idempotence), Value Epoch, Payload Seq (per partition),
// Status Partition.
type batch struct {
	Op        sim.OpID
	Attempt   int32
	PID       int64
	Epoch     int64
	Seq       int64
	Partition int32
}

func (b batch) encode() sim.Message {
	return sim.Message{Kind: MsgBatch, Op: b.Op, Attempt: b.Attempt, Key: b.PID, Value: b.Epoch, Payload: b.Seq, Status: b.Partition}
}

func decodeBatch(m sim.Message) batch {
	return batch{Op: m.Op, Attempt: m.Attempt, PID: m.Key, Epoch: m.Value, Seq: m.Payload, Partition: m.Status}
}

// batchAck answers a batch. Slots: Op, Attempt (echoed), Key Offset (0:
// not appended; a duplicate of one of the last 5 batches carries the
// offset it was first appended at), Value Epoch and Payload Seq (echoed),
// Status Err (0, OUT_OF_ORDER_SEQUENCE_NUMBER or INVALID_PRODUCER_EPOCH).
type batchAck struct {
	Op      sim.OpID
	Attempt int32
	Offset  int64
	Epoch   int64
	Seq     int64
	Err     int32
}

func (a batchAck) encode() sim.Message {
	return sim.Message{Kind: MsgBatchAck, Op: a.Op, Attempt: a.Attempt, Key: a.Offset, Value: a.Epoch, Payload: a.Seq, Status: a.Err}
}

func decodeBatchAck(m sim.Message) batchAck {
	return batchAck{Op: m.Op, Attempt: m.Attempt, Offset: m.Key, Epoch: m.Value, Seq: m.Payload, Err: m.Status}
}

// seqStateRow is what a partition leader keeps of one producer on one
// partition. Slots: Status Epoch, Aux LastSeq (of that epoch), Value
// LastOffset. The batches it can recognise as duplicates are the last
// idemWindow sequences up to LastSeq: appended sequences of an epoch are
// consecutive, so the window is a range.
type seqStateRow struct {
	Epoch      int32
	LastSeq    int64
	LastOffset int64
	At         sim.Time
}

func (s seqStateRow) encode() sim.Record {
	return sim.Record{Status: s.Epoch, Aux: s.LastSeq, Value: s.LastOffset, At: s.At}
}

func decodeSeqStateRow(r sim.Record) seqStateRow {
	return seqStateRow{Epoch: r.Status, LastSeq: r.Aux, LastOffset: r.Value, At: r.At}
}

// pendingBatchRow is one operation at the idempotent producer. Slots:
// State (roles.OpPending, roles.OpDone; 0 not started), Status Attempt,
// Aux Seq, Value Epoch (the epoch Seq belongs to).
type pendingBatchRow struct {
	State   int32
	Attempt int32
	Seq     int64
	Epoch   int64
	At      sim.Time
}

func (p pendingBatchRow) encode() sim.Record {
	return sim.Record{State: p.State, Status: p.Attempt, Aux: p.Seq, Value: p.Epoch, At: p.At}
}

func decodePendingBatchRow(r sim.Record) pendingBatchRow {
	return pendingBatchRow{State: r.State, Attempt: r.Status, Seq: r.Aux, Epoch: r.Value, At: r.At}
}

// partitionSeqRow is the producer's numbering of one partition in the
// current epoch. Slots: Aux Next (the last sequence given out), Value
// Acked (the highest sequence acknowledged).
type partitionSeqRow struct {
	Next  int64
	Acked int64
	At    sim.Time
}

func (p partitionSeqRow) encode() sim.Record {
	return sim.Record{Aux: p.Next, Value: p.Acked, At: p.At}
}

func decodePartitionSeqRow(r sim.Record) partitionSeqRow {
	return partitionSeqRow{Next: r.Aux, Acked: r.Value, At: r.At}
}
