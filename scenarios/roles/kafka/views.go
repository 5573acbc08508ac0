package kafka

import "github.com/oncesim/once/sim"

// Typed views of the family's messages. Each view names the protocol
// fields of one message kind and says which generic slot of sim.Message
// carries each; encode and decode are allocation-free value conversions.
// A slot means one thing per kind. Corr is the correlation id of a
// control request, echoed by its answer (in Attempt).

// fetch asks for the next visible record of Topic at or after Position.
// Slots: Key Position, Payload Topic, Value Isolation (readCommitted or
// readUncommitted).
type fetch struct {
	Position  int64
	Topic     int64
	Isolation int64
	// NoWait asks for an answer even when nothing is visible (a record of
	// Op 0 at Position): a restoring state store reads to the end of its
	// changelog and stops, where a consumer's poll waits. Slot Status (1).
	NoWait bool
}

func (f fetch) encode() sim.Message {
	m := sim.Message{Kind: MsgFetch, Key: f.Position, Payload: f.Topic, Value: f.Isolation}
	if f.NoWait {
		m.Status = 1
	}
	return m
}

func decodeFetch(m sim.Message) fetch {
	return fetch{Position: m.Key, Topic: m.Payload, Isolation: m.Value, NoWait: m.Status == 1}
}

// record is one record served to a consumer. Slots: Op the record's
// operation, Attempt Delivery (times this input record was served; 1 on
// the output topic), Key Offset (in Topic), Payload Topic, Value Count
// (the aggregate a Kafka Streams task wrote with it; 0 otherwise).
type record struct {
	Op       sim.OpID
	Delivery int32
	Offset   int64
	Topic    int64
	Count    int64
}

func (r record) encode() sim.Message {
	return sim.Message{Kind: MsgRecord, Op: r.Op, Attempt: r.Delivery, Key: r.Offset, Payload: r.Topic, Value: r.Count}
}

func decodeRecord(m sim.Message) record {
	return record{Op: m.Op, Delivery: m.Attempt, Offset: m.Key, Topic: m.Payload, Count: m.Value}
}

// produce appends an output record. Slots: Op, Attempt (send attempt),
// Key PID (0 = a plain producer, then Epoch and Seq are 0), Value Epoch,
// Payload Seq, Status Count (the aggregate a Kafka Streams task writes
// with the record, its changelog value; 0 for a plain output).
type produce struct {
	Op      sim.OpID
	Attempt int32
	PID     int64
	Epoch   int64
	Seq     int64
	Count   int32
}

func (p produce) encode() sim.Message {
	return sim.Message{Kind: MsgProduce, Op: p.Op, Attempt: p.Attempt, Key: p.PID, Value: p.Epoch, Payload: p.Seq, Status: p.Count}
}

func decodeProduce(m sim.Message) produce {
	return produce{Op: m.Op, Attempt: m.Attempt, PID: m.Key, Epoch: m.Value, Seq: m.Payload, Count: m.Status}
}

// produceAck answers a produce. Slots: Op and Attempt echoed, Key Offset
// (where the record was appended in the output topic; 0 when not appended), Value Epoch and
// Payload Seq echoed, Status Err (0 or a Kafka error code).
type produceAck struct {
	Op      sim.OpID
	Attempt int32
	Offset  int64
	Epoch   int64
	Seq     int64
	Err     int32
}

func (a produceAck) encode() sim.Message {
	return sim.Message{Kind: MsgProduceAck, Op: a.Op, Attempt: a.Attempt, Key: a.Offset, Value: a.Epoch, Payload: a.Seq, Status: a.Err}
}

func decodeProduceAck(m sim.Message) produceAck {
	return produceAck{Op: m.Op, Attempt: m.Attempt, Offset: m.Key, Epoch: m.Value, Seq: m.Payload, Err: m.Status}
}

// initPID registers a transactional id. Slots: Key TxnID, Attempt Corr.
type initPID struct {
	TxnID int64
	Corr  int32
}

func (i initPID) encode() sim.Message {
	return sim.Message{Kind: MsgInitPID, Key: i.TxnID, Attempt: i.Corr}
}

func decodeInitPID(m sim.Message) initPID { return initPID{TxnID: m.Key, Corr: m.Attempt} }

// producerID answers init-producer-id. Slots: Key PID, Value Epoch (the
// new one), Payload TxnID, Attempt Corr.
type producerID struct {
	PID   int64
	Epoch int64
	TxnID int64
	Corr  int32
}

func (p producerID) encode() sim.Message {
	return sim.Message{Kind: MsgProducerID, Key: p.PID, Value: p.Epoch, Payload: p.TxnID, Attempt: p.Corr}
}

func decodeProducerID(m sim.Message) producerID {
	return producerID{PID: m.Key, Epoch: m.Value, TxnID: m.Payload, Corr: m.Attempt}
}

// addParts begins a transaction. Slots: Key PID, Value Epoch, Attempt Corr.
type addParts struct {
	PID   int64
	Epoch int64
	Corr  int32
}

func (a addParts) encode() sim.Message {
	return sim.Message{Kind: MsgAddParts, Key: a.PID, Value: a.Epoch, Attempt: a.Corr}
}

func decodeAddParts(m sim.Message) addParts {
	return addParts{PID: m.Key, Epoch: m.Value, Corr: m.Attempt}
}

// addPartsOK answers add-partitions. Slots: Key PID, Payload Epoch
// (echoed), Status Err, Attempt Corr.
type addPartsOK struct {
	PID   int64
	Epoch int64
	Err   int32
	Corr  int32
}

func (a addPartsOK) encode() sim.Message {
	return sim.Message{Kind: MsgAddPartsOK, Key: a.PID, Payload: a.Epoch, Status: a.Err, Attempt: a.Corr}
}

func decodeAddPartsOK(m sim.Message) addPartsOK {
	return addPartsOK{PID: m.Key, Epoch: m.Payload, Err: m.Status, Corr: m.Attempt}
}

// txnOffsets puts the consumed position into a transaction. Slots: Key
// PID, Value Epoch, Payload Position (next input position), Attempt Corr,
// Status Generation (of the consumer group, KIP-447; 0 without one).
type txnOffsets struct {
	PID        int64
	Epoch      int64
	Position   int64
	Corr       int32
	Generation int32
}

func (t txnOffsets) encode() sim.Message {
	return sim.Message{Kind: MsgTxnOffsets, Key: t.PID, Value: t.Epoch, Payload: t.Position, Attempt: t.Corr, Status: t.Generation}
}

func decodeTxnOffsets(m sim.Message) txnOffsets {
	return txnOffsets{PID: m.Key, Epoch: m.Value, Position: m.Payload, Corr: m.Attempt, Generation: m.Status}
}

// offsetCommit commits the consumed position at once. Slots: Payload
// Position, Attempt Corr, Key Generation (of the consumer group; 0
// without one).
type offsetCommit struct {
	Position   int64
	Corr       int32
	Generation int64
}

func (o offsetCommit) encode() sim.Message {
	return sim.Message{Kind: MsgOffsetCommit, Payload: o.Position, Attempt: o.Corr, Key: o.Generation}
}

func decodeOffsetCommit(m sim.Message) offsetCommit {
	return offsetCommit{Position: m.Payload, Corr: m.Attempt, Generation: m.Key}
}

// offsetAck answers txn-offset-commit and offset-commit. Slots: Key PID
// and Value Epoch echoed (0 for offset-commit), Payload Position echoed,
// Status Err, Attempt Corr.
type offsetAck struct {
	PID      int64
	Epoch    int64
	Position int64
	Err      int32
	Corr     int32
}

func (a offsetAck) encode() sim.Message {
	return sim.Message{Kind: MsgOffsetAck, Key: a.PID, Value: a.Epoch, Payload: a.Position, Status: a.Err, Attempt: a.Corr}
}

func decodeOffsetAck(m sim.Message) offsetAck {
	return offsetAck{PID: m.Key, Epoch: m.Value, Position: m.Payload, Err: m.Status, Corr: m.Attempt}
}

// offsetFetch asks where a group stopped. Slots: Key Group, Attempt Corr.
type offsetFetch struct {
	Group int64
	Corr  int32
}

func (o offsetFetch) encode() sim.Message {
	return sim.Message{Kind: MsgOffsetFetch, Key: o.Group, Attempt: o.Corr}
}

func decodeOffsetFetch(m sim.Message) offsetFetch {
	return offsetFetch{Group: m.Key, Corr: m.Attempt}
}

// offsets answers offset-fetch. Slots: Payload Position (the committed
// next position, 0 = none), Status Err, Attempt Corr.
type offsets struct {
	Position int64
	Err      int32
	Corr     int32
}

func (o offsets) encode() sim.Message {
	return sim.Message{Kind: MsgOffsets, Payload: o.Position, Status: o.Err, Attempt: o.Corr}
}

func decodeOffsets(m sim.Message) offsets {
	return offsets{Position: m.Payload, Err: m.Status, Corr: m.Attempt}
}

// endTxn commits or aborts. Slots: Key PID, Value Epoch, Payload Result
// (txnCommit or txnAbort), Attempt Corr.
type endTxn struct {
	PID    int64
	Epoch  int64
	Result int64
	Corr   int32
}

func (e endTxn) encode() sim.Message {
	return sim.Message{Kind: MsgEndTxn, Key: e.PID, Value: e.Epoch, Payload: e.Result, Attempt: e.Corr}
}

func decodeEndTxn(m sim.Message) endTxn {
	return endTxn{PID: m.Key, Epoch: m.Value, Result: m.Payload, Corr: m.Attempt}
}

// endTxnResult answers end-txn. Slots: Key PID, Value NewEpoch (the
// bumped epoch; 0 on an error), Payload Epoch (the request's, echoed),
// Status Err, Attempt Corr.
type endTxnResult struct {
	PID      int64
	NewEpoch int64
	Epoch    int64
	Err      int32
	Corr     int32
}

func (e endTxnResult) encode() sim.Message {
	return sim.Message{Kind: MsgEndTxnResult, Key: e.PID, Value: e.NewEpoch, Payload: e.Epoch, Status: e.Err, Attempt: e.Corr}
}

func decodeEndTxnResult(m sim.Message) endTxnResult {
	return endTxnResult{PID: m.Key, NewEpoch: m.Value, Epoch: m.Payload, Err: m.Status, Corr: m.Attempt}
}

// markers asks the broker to write control records (write-markers) and
// confirms they are written (markers-written, the same fields echoed).
// Slots: Key PID, Value Epoch of the markers, Payload Result.
type markers struct {
	PID    int64
	Epoch  int64
	Result int64
}

func (w markers) encode(kind sim.MsgKind) sim.Message {
	return sim.Message{Kind: kind, Key: w.PID, Value: w.Epoch, Payload: w.Result}
}

func decodeMarkers(m sim.Message) markers {
	return markers{PID: m.Key, Epoch: m.Value, Result: m.Payload}
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
