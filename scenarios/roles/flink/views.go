package flink

import "github.com/oncesim/once/sim"

// Typed views of the family's messages. Each view names the protocol
// fields of one message kind and says which generic slot of sim.Message
// carries each; encode and decode are allocation-free value conversions.
// A slot means one thing per kind. Attempt is always the job attempt.

// deploy (re)starts a task from the latest completed checkpoint. The
// source's deployment carries Offset; the sink's carries FirstTxn,
// LastTxn, Boot and — when it keeps operator state — that state in Offset
// (the other fields are 0). Slots: Attempt, Key Offset (where the source
// rewinds to; the count the sink's state restores), Payload FirstTxn and
// Value LastTxn (the
// checkpoint's pre-committed transactions the sink must commit; 0 = none),
// Status Boot (the sink boot the deployment is for).
type deploy struct {
	Attempt  int32
	Offset   int64
	FirstTxn int64
	LastTxn  int64
	Boot     int32
}

func (d deploy) encode() sim.Message {
	return sim.Message{Kind: MsgDeploy, Attempt: d.Attempt, Key: d.Offset, Payload: d.FirstTxn, Value: d.LastTxn, Status: d.Boot}
}

func decodeDeploy(m sim.Message) deploy {
	return deploy{Attempt: m.Attempt, Offset: m.Key, FirstTxn: m.Payload, LastTxn: m.Value, Boot: m.Status}
}

// register announces a (re)started sink task manager. Slots: Key Boot.
type register struct {
	Boot int64
}

func (r register) encode() sim.Message { return sim.Message{Kind: MsgRegister, Key: r.Boot} }

func decodeRegister(m sim.Message) register { return register{Boot: m.Key} }

// checkpointMsg is trigger-checkpoint, barrier, checkpoint-complete and
// committed: a checkpoint of an attempt. Slots: Key Checkpoint, Attempt.
type checkpointMsg struct {
	Checkpoint int64
	Attempt    int32
}

func (c checkpointMsg) encode(kind sim.MsgKind) sim.Message {
	return sim.Message{Kind: kind, Key: c.Checkpoint, Attempt: c.Attempt}
}

func decodeCheckpointMsg(m sim.Message) checkpointMsg {
	return checkpointMsg{Checkpoint: m.Key, Attempt: m.Attempt}
}

// streamRecord is one record of the stream. Slots: Op (record n is
// operation n), Attempt, Key Offset (its offset in the source).
type streamRecord struct {
	Op      sim.OpID
	Attempt int32
	Offset  int64
}

func (r streamRecord) encode() sim.Message {
	return sim.Message{Kind: MsgRecord, Op: r.Op, Attempt: r.Attempt, Key: r.Offset}
}

func decodeStreamRecord(m sim.Message) streamRecord {
	return streamRecord{Op: m.Op, Attempt: m.Attempt, Offset: m.Key}
}

// subscribe asks the source for the stream of an attempt. Slots: Attempt.
type subscribe struct {
	Attempt int32
}

func (s subscribe) encode() sim.Message {
	return sim.Message{Kind: MsgSubscribe, Attempt: s.Attempt}
}

func decodeSubscribe(m sim.Message) subscribe { return subscribe{Attempt: m.Attempt} }

// ack is a task's snapshot for a checkpoint. The source's carries its
// offset in Position, the sink's FirstTxn and LastTxn and — when it keeps
// operator state — the records that state has counted in Position (the
// other fields are 0; a plain sink without state carries none). Slots:
// Key Checkpoint, Attempt, Status Position (an operation number or a
// count of records, so within int32), Payload FirstTxn and Value LastTxn
// (the pre-committed transactions not yet committed).
type ack struct {
	Checkpoint int64
	Attempt    int32
	Position   int32
	FirstTxn   int64
	LastTxn    int64
}

func (a ack) encode() sim.Message {
	return sim.Message{Kind: MsgAck, Key: a.Checkpoint, Attempt: a.Attempt, Status: a.Position, Payload: a.FirstTxn, Value: a.LastTxn}
}

func decodeAck(m sim.Message) ack {
	return ack{Checkpoint: m.Key, Attempt: m.Attempt, Position: m.Status, FirstTxn: m.Payload, LastTxn: m.Value}
}
