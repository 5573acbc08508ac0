package kafka

import "github.com/oncesim/once/sim"

// Typed views of the idempotent producer's protocol (idemproducer.go,
// idemleader.go) and of its rows.

// batch is one produce request of the idempotent producer: a batch of
// one record. Slots: Op, Attempt (send attempt), Key PID (0: a producer
// without idempotence), Value Epoch, Payload Seq (per partition),
// Status Partition.
//
//viewgen:message kind=MsgBatch
type batch struct {
	Op        sim.OpID `slot:"Op"`
	Attempt   int32    `slot:"Attempt"`
	PID       int64    `slot:"Key"`
	Epoch     int64    `slot:"Value"`
	Seq       int64    `slot:"Payload"`
	Partition int32    `slot:"Status"`
}

// batchAck answers a batch. Slots: Op, Attempt (echoed), Key Offset (0:
// not appended; a duplicate of one of the last 5 batches carries the
// offset it was first appended at), Value Epoch and Payload Seq (echoed),
// Status Err (0, OUT_OF_ORDER_SEQUENCE_NUMBER or INVALID_PRODUCER_EPOCH).
//
//viewgen:message kind=MsgBatchAck
type batchAck struct {
	Op      sim.OpID `slot:"Op"`
	Attempt int32    `slot:"Attempt"`
	Offset  int64    `slot:"Key"`
	Epoch   int64    `slot:"Value"`
	Seq     int64    `slot:"Payload"`
	Err     int32    `slot:"Status"`
}

// pendingBatchRow is one operation at the idempotent producer. Slots:
// State (roles.OpPending, roles.OpDone; 0 not started), Status Attempt,
// Aux Seq, Value Epoch (the epoch Seq belongs to).
//
//viewgen:record
type pendingBatchRow struct {
	State   int32    `slot:"State"`
	Attempt int32    `slot:"Status"`
	Seq     int64    `slot:"Aux"`
	Epoch   int64    `slot:"Value"`
	At      sim.Time `slot:"At"`
}

// partitionSeqRow is the producer's numbering of one partition in the
// current epoch. Slots: Aux Next (the last sequence given out), Value
// Acked (the highest sequence acknowledged).
//
//viewgen:record
type partitionSeqRow struct {
	Next  int64    `slot:"Aux"`
	Acked int64    `slot:"Value"`
	At    sim.Time `slot:"At"`
}
