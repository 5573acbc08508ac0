package kafka

import "github.com/oncesim/once/sim"

// Typed views of the family's messages. Each view names the protocol
// fields of one message kind and says, in each field's slot tag, which
// generic slot of sim.Message carries it; viewgen writes the codecs from
// the tags (views_gen.go: `go generate`, never by hand), allocation-free
// value conversions checked by views_gen_test.go. A slot means one thing
// per kind. Corr is the correlation id of a control request, echoed by
// its answer (in Attempt).

//go:generate go run ../viewgen

// fetch asks for the next visible record of Topic at or after Position.
// Slots: Key Position, Payload Topic, Value Isolation (readCommitted or
// readUncommitted).
//
//viewgen:message kind=MsgFetch
type fetch struct {
	Position  int64 `slot:"Key"`
	Topic     int64 `slot:"Payload"`
	Isolation int64 `slot:"Value"`
	// NoWait asks for an answer even when nothing is visible (a record of
	// Op 0 at Position): a restoring state store reads to the end of its
	// changelog and stops, where a consumer's poll waits. Slot Status (1).
	NoWait bool `slot:"Status"`
}

// record is one record served to a consumer. Slots: Op the record's
// operation, Attempt Delivery (times this input record was served; 1 on
// the output topic), Key Offset (in Topic), Payload Topic, Value Count
// (the aggregate a Kafka Streams task wrote with it; 0 otherwise).
//
//viewgen:message kind=MsgRecord
type record struct {
	Op       sim.OpID `slot:"Op"`
	Delivery int32    `slot:"Attempt"`
	Offset   int64    `slot:"Key"`
	Topic    int64    `slot:"Payload"`
	Count    int64    `slot:"Value"`
}

// produce appends an output record. Slots: Op, Attempt (send attempt),
// Key PID (0 = a plain producer, then Epoch and Seq are 0), Value Epoch,
// Payload Seq, Status Count (the aggregate a Kafka Streams task writes
// with the record, its changelog value; 0 for a plain output).
//
//viewgen:message kind=MsgProduce
type produce struct {
	Op      sim.OpID `slot:"Op"`
	Attempt int32    `slot:"Attempt"`
	PID     int64    `slot:"Key"`
	Epoch   int64    `slot:"Value"`
	Seq     int64    `slot:"Payload"`
	Count   int32    `slot:"Status"`
}

// produceAck answers a produce. Slots: Op and Attempt echoed, Key Offset
// (where the record was appended in the output topic; 0 when not appended), Value Epoch and
// Payload Seq echoed, Status Err (0 or a Kafka error code).
//
//viewgen:message kind=MsgProduceAck
type produceAck struct {
	Op      sim.OpID `slot:"Op"`
	Attempt int32    `slot:"Attempt"`
	Offset  int64    `slot:"Key"`
	Epoch   int64    `slot:"Value"`
	Seq     int64    `slot:"Payload"`
	Err     int32    `slot:"Status"`
}

// initPID registers a transactional id. Slots: Key TxnID, Attempt Corr.
//
//viewgen:message kind=MsgInitPID
type initPID struct {
	TxnID int64 `slot:"Key"`
	Corr  int32 `slot:"Attempt"`
}

// producerID answers init-producer-id. Slots: Key PID, Value Epoch (the
// new one), Payload TxnID, Attempt Corr.
//
//viewgen:message kind=MsgProducerID
type producerID struct {
	PID   int64 `slot:"Key"`
	Epoch int64 `slot:"Value"`
	TxnID int64 `slot:"Payload"`
	Corr  int32 `slot:"Attempt"`
}

// addParts begins a transaction. Slots: Key PID, Value Epoch, Attempt Corr.
//
//viewgen:message kind=MsgAddParts
type addParts struct {
	PID   int64 `slot:"Key"`
	Epoch int64 `slot:"Value"`
	Corr  int32 `slot:"Attempt"`
}

// addPartsOK answers add-partitions. Slots: Key PID, Payload Epoch
// (echoed), Status Err, Attempt Corr.
//
//viewgen:message kind=MsgAddPartsOK
type addPartsOK struct {
	PID   int64 `slot:"Key"`
	Epoch int64 `slot:"Payload"`
	Err   int32 `slot:"Status"`
	Corr  int32 `slot:"Attempt"`
}

// txnOffsets puts the consumed position into a transaction. Slots: Key
// PID, Value Epoch, Payload Position (next input position), Attempt Corr,
// Status Generation (of the consumer group, KIP-447; 0 without one).
//
//viewgen:message kind=MsgTxnOffsets
type txnOffsets struct {
	PID        int64 `slot:"Key"`
	Epoch      int64 `slot:"Value"`
	Position   int64 `slot:"Payload"`
	Corr       int32 `slot:"Attempt"`
	Generation int32 `slot:"Status"`
}

// offsetCommit commits the consumed position at once. Slots: Payload
// Position, Attempt Corr, Key Generation (of the consumer group; 0
// without one).
//
//viewgen:message kind=MsgOffsetCommit
type offsetCommit struct {
	Position   int64 `slot:"Payload"`
	Corr       int32 `slot:"Attempt"`
	Generation int64 `slot:"Key"`
}

// offsetAck answers txn-offset-commit and offset-commit. Slots: Key PID
// and Value Epoch echoed (0 for offset-commit), Payload Position echoed,
// Status Err, Attempt Corr.
//
//viewgen:message kind=MsgOffsetAck
type offsetAck struct {
	PID      int64 `slot:"Key"`
	Epoch    int64 `slot:"Value"`
	Position int64 `slot:"Payload"`
	Err      int32 `slot:"Status"`
	Corr     int32 `slot:"Attempt"`
}

// offsetFetch asks where a group stopped. Slots: Key Group, Attempt Corr.
//
//viewgen:message kind=MsgOffsetFetch
type offsetFetch struct {
	Group int64 `slot:"Key"`
	Corr  int32 `slot:"Attempt"`
}

// offsets answers offset-fetch. Slots: Payload Position (the committed
// next position, 0 = none), Status Err, Attempt Corr.
//
//viewgen:message kind=MsgOffsets
type offsets struct {
	Position int64 `slot:"Payload"`
	Err      int32 `slot:"Status"`
	Corr     int32 `slot:"Attempt"`
}

// endTxn commits or aborts. Slots: Key PID, Value Epoch, Payload Result
// (txnCommit or txnAbort), Attempt Corr.
//
//viewgen:message kind=MsgEndTxn
type endTxn struct {
	PID    int64 `slot:"Key"`
	Epoch  int64 `slot:"Value"`
	Result int64 `slot:"Payload"`
	Corr   int32 `slot:"Attempt"`
}

// endTxnResult answers end-txn. Slots: Key PID, Value NewEpoch (the
// bumped epoch; 0 on an error), Payload Epoch (the request's, echoed),
// Status Err, Attempt Corr.
//
//viewgen:message kind=MsgEndTxnResult
type endTxnResult struct {
	PID      int64 `slot:"Key"`
	NewEpoch int64 `slot:"Value"`
	Epoch    int64 `slot:"Payload"`
	Err      int32 `slot:"Status"`
	Corr     int32 `slot:"Attempt"`
}

// markers asks the broker to write control records (write-markers) and
// confirms they are written (markers-written, the same fields echoed).
// Slots: Key PID, Value Epoch of the markers, Payload Result.
//
//viewgen:message kind=caller
type markers struct {
	PID    int64 `slot:"Key"`
	Epoch  int64 `slot:"Value"`
	Result int64 `slot:"Payload"`
}

// verifyTxn asks the coordinator whether a produce belongs to an ongoing
// transaction, and carries the answer back. Slots: those of the produce it
// holds (Op, Attempt, Key PID, Value Epoch, Payload Seq), Status Err on
// the answer (0: verified).
type verifyTxn struct {
	P   produce
	Err int32
}

func (v verifyTxn) encode(kind sim.MsgKind) sim.Message {
	m := v.P.encode()
	m.Kind, m.Status = kind, v.Err
	return m
}

func decodeVerifyTxn(m sim.Message) verifyTxn {
	return verifyTxn{P: decodeProduce(m), Err: m.Status}
}
