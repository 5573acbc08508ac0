package payments

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/viewtest"
	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// A step key names its saga, step and action, and gives them back.
func TestSagaStepKey(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		saga := rapid.Int64Range(0, roles.TupleHiMax(3)).Draw(rt, "saga")
		step := rapid.Int32Range(0, 99).Draw(rt, "step")
		action := rapid.SampledFrom([]int32{sagaReserve, sagaCancel}).Draw(rt, "action")
		gotStep, gotAction := sagaStepOf(sagaStepKey(saga, step, action))
		if gotStep != step || gotAction != action {
			rt.Fatalf("sagaStepOf(sagaStepKey(%d, %d, %d)) = %d, %d", saga, step, action, gotStep, gotAction)
		}
	})
	viewtest.PairKeyInjective(t, rapid.Int64Range(0, roles.TupleHiMax(3)), rapid.Int64Range(0, 999), func(hi, lo int64) int64 {
		return int64(sagaStepKey(hi, int32(lo/10), int32(lo%10)))
	})
}

// Scoped keys never let two users share an entry.
func TestRestKeyScopeSeparatesUsers(t *testing.T) {
	viewtest.PairKeyInjective(t, rapid.Int64Range(0, roles.TupleHiMax(userDigits)), rapid.Int64Range(1, 99), func(key, user int64) int64 {
		return restKeyScope(user, idemKey(key), true)
	})
	if restKeyScope(1, 7, false) != restKeyScope(2, 7, false) {
		t.Fatal("a global scope must give both users the same entry (the bug the lesson shows)")
	}
}

// The invariants judge what they say, on hand-written traces.
func TestRestAndSagaInvariants(t *testing.T) {
	effect := func(sink sim.SinkID, op sim.OpID, v int64) *sim.Event {
		return &sim.Event{Kind: sim.EvEffect, Label: uint16(sink), Msg: sim.Message{Op: op, Value: v}}
	}
	outcome := func(op sim.OpID, v int64) *sim.Event {
		return &sim.Event{Kind: sim.EvOutcome, Msg: sim.Message{Op: op, Value: v, Status: roles.StatusCreated}}
	}
	own := &ownReceipt{}
	own.Record(effect(SinkCardCharges, 1, 8821))
	own.Record(outcome(1, receipt(8821, 1)))
	if v := own.Violation(true); v != "" {
		t.Fatalf("own receipt flagged: %s", v)
	}
	own.Record(outcome(2, receipt(8821, 1)))
	if own.Violation(true) == "" {
		t.Fatal("op-2 accepted op-1's receipt, not flagged")
	}
	one := &oneReceipt{}
	one.Record(outcome(1, receipt(8821, 1)))
	one.Record(outcome(1, receipt(8821, 1)))
	if v := one.Violation(true); v != "" {
		t.Fatalf("the same receipt twice flagged: %s", v)
	}
	one.Record(outcome(1, receipt(8821, 2)))
	if one.Violation(true) == "" {
		t.Fatal("two different receipts for op-1, not flagged")
	}
	saga := &sagaHoldings{}
	saga.Record(effect(SinkFlights, 1, 10_001))
	saga.Record(effect(SinkCancellations, 1, 10_001))
	if v := saga.Violation(true); v != "" {
		t.Fatalf("a compensated flight flagged: %s", v)
	}
	saga.Record(effect(SinkFlights, 2, 10_002))
	if saga.Violation(false) != "" || saga.Violation(true) == "" {
		t.Fatal("a flight without its hotel must be flagged at the end of a finished run only")
	}
}
