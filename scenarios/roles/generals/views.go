package generals

import "github.com/oncesim/once/sim"

// Typed views of the Two Generals' message and row. Role code reads these
// named fields; only the encode/decode pairs know the slots. Both are plain
// value conversions (no allocation) and round-trip (views_test.go).

// messenger is one messenger crossing the valley: the plan (MsgPlan, round
// 1) or an acknowledgement of the previous round (MsgAck, rounds 2..N).
// Slots: Op = 1 (the generals' one operation, the attack); Attempt = the
// round, so the trace's #N is the round. Key, Payload, Value and Status are
// 0.
type messenger struct {
	Round int32
}

// generalsOp is the one operation of the scenario: the attack.
const generalsOp sim.OpID = 1

func (v messenger) encode(kind sim.MsgKind) sim.Message {
	return sim.Message{Kind: kind, Op: generalsOp, Attempt: v.Round}
}

func decodeMessenger(m sim.Message) messenger { return messenger{Round: m.Attempt} }

// receivedRow is a general's count of messengers received (row 0 of its
// received table). Slots: Value = the count.
type receivedRow struct {
	Count int64
}

func (v receivedRow) encode() sim.Record { return sim.Record{Value: v.Count} }

func decodeReceivedRow(r sim.Record) receivedRow { return receivedRow{Count: r.Value} }
