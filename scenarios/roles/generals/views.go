package generals

import "github.com/oncesim/once/sim"

// Typed views of the Two Generals' message and row. Role code reads these
// named fields; their slot tags say which slot holds each, and viewgen
// writes the codecs (views_gen.go: `go generate`, never by hand): plain
// value conversions (no allocation) that round-trip (views_gen_test.go).

//go:generate go run ../viewgen

// messenger is one messenger crossing the valley: the plan (MsgPlan, round
// 1) or an acknowledgement of the previous round (MsgAck, rounds 2..N).
// Slots: Op = 1 (the generals' one operation, the attack); Attempt = the
// round, so the trace's #N is the round. Key, Payload, Value and Status are
// 0.
//
//viewgen:message kind=caller Op=generalsOp
type messenger struct {
	Round int32 `slot:"Attempt"`
}

// generalsOp is the one operation of the scenario: the attack.
const generalsOp sim.OpID = 1

// receivedRow is a general's count of messengers received (row 0 of its
// received table). Slots: Value = the count.
//
//viewgen:record
type receivedRow struct {
	Count int64 `slot:"Value"`
}
