package flink

import "github.com/oncesim/once/sim"

// Typed views of the family's messages. Each view names the protocol
// fields of one message kind and says, in each field's slot tag, which
// generic slot of sim.Message carries it; viewgen writes the codecs from
// the tags (views_gen.go: `go generate`, never by hand), allocation-free
// value conversions checked by views_gen_test.go. A slot means one thing
// per kind. Attempt is always the job attempt.

//go:generate go run ../viewgen

// deploy (re)starts a task from the latest completed checkpoint. The
// source's deployment carries Offset; the sink's carries FirstTxn,
// LastTxn, Boot and — when it keeps operator state — that state in Offset
// (the other fields are 0). Slots: Attempt, Key Offset (where the source
// rewinds to; the count the sink's state restores), Payload FirstTxn and
// Value LastTxn (the
// checkpoint's pre-committed transactions the sink must commit; 0 = none),
// Status Boot (the sink boot the deployment is for).
//
//viewgen:message kind=MsgDeploy
type deploy struct {
	Attempt  int32 `slot:"Attempt"`
	Offset   int64 `slot:"Key"`
	FirstTxn int64 `slot:"Payload"`
	LastTxn  int64 `slot:"Value"`
	Boot     int32 `slot:"Status"`
}

// register announces a (re)started sink task manager. Slots: Key Boot.
//
//viewgen:message kind=MsgRegister
type register struct {
	Boot int64 `slot:"Key"`
}

// checkpointMsg is trigger-checkpoint, barrier, checkpoint-complete and
// committed: a checkpoint of an attempt. Slots: Key Checkpoint, Attempt.
//
//viewgen:message kind=caller
type checkpointMsg struct {
	Checkpoint int64 `slot:"Key"`
	Attempt    int32 `slot:"Attempt"`
}

// streamRecord is one record of the stream. Slots: Op (record n is
// operation n), Attempt, Key Offset (its offset in the source).
//
//viewgen:message kind=MsgRecord
type streamRecord struct {
	Op      sim.OpID `slot:"Op"`
	Attempt int32    `slot:"Attempt"`
	Offset  int64    `slot:"Key"`
}

// subscribe asks the source for the stream of an attempt. Slots: Attempt.
//
//viewgen:message kind=MsgSubscribe
type subscribe struct {
	Attempt int32 `slot:"Attempt"`
}

// ack is a task's snapshot for a checkpoint. The source's carries its
// offset in Position, the sink's FirstTxn and LastTxn and — when it keeps
// operator state — the records that state has counted in Position (the
// other fields are 0; a plain sink without state carries none). Slots:
// Key Checkpoint, Attempt, Status Position (an operation number or a
// count of records, so within int32), Payload FirstTxn and Value LastTxn
// (the pre-committed transactions not yet committed).
//
//viewgen:message kind=MsgAck
type ack struct {
	Checkpoint int64 `slot:"Key"`
	Attempt    int32 `slot:"Attempt"`
	Position   int32 `slot:"Status"`
	FirstTxn   int64 `slot:"Payload"`
	LastTxn    int64 `slot:"Value"`
}
