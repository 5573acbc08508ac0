package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// sagaStepCall is a step call and its answer (MsgSagaStep,
// MsgSagaStepResult): the answer echoes the call. Slots: Key = the step
// key (sagaStepKey: saga, step and action, which the participant reads
// from it); Payload = the saga id; Status = the answer's status (0 in a
// call); Value = the participant's record id (0 in a call). The envelope's
// Attempt is the call of that step (1-based).
type sagaStepCall struct {
	Key      idemKey
	Saga     int64
	Status   int32
	RecordID int64
}

func (v sagaStepCall) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key, m.Payload, m.Status, m.Value = int64(v.Key), v.Saga, v.Status, v.RecordID
	return m
}

func decodeSagaStepCall(m sim.Message) sagaStepCall {
	return sagaStepCall{Key: idemKey(m.Key), Saga: m.Payload, Status: m.Status, RecordID: m.Value}
}

// sagaStepKey is the dedup key of one action of one step of one saga.
// Ranges: roles.TupleKey's, with 3 digits for step·10+action (step < 100).
func sagaStepKey(saga int64, step, action int32) idemKey {
	return idemKey(roles.TupleKey(saga, int64(step)*10+int64(action), 3))
}

// sagaStepOf returns the step and the action a step key names.
func sagaStepOf(k idemKey) (step, action int32) {
	lo := int64(k) % 1000
	return int32(lo / 10), int32(lo % 10)
}

// sagaRow is one saga in an orchestrator's log. Slots: State = the saga
// state; Status = the step being run (or compensated); Value = the saga
// id; Aux = the client's latest attempt (to answer it).
type sagaRow struct {
	State   int32
	Step    int32
	Saga    int64
	Attempt int32
}

func (v sagaRow) encode() sim.Record {
	return sim.Record{State: v.State, Status: v.Step, Value: v.Saga, Aux: int64(v.Attempt)}
}

func decodeSagaRow(r sim.Record) sagaRow {
	return sagaRow{State: r.State, Step: r.Status, Saga: r.Value, Attempt: int32(r.Aux)}
}

// sagaDeadline is the orchestrator's deadline for one call of a step
// (TimerSagaStep). Slots: Key = the saga; Phase = step·10 + action; Attempt
// = the call (1-based).
type sagaDeadline struct {
	Saga       int64
	StepAction int32
	Call       int32
}

func (v sagaDeadline) timer(op sim.OpID) sim.Timer {
	return sim.Timer{Kind: TimerSagaStep, Op: op, Key: v.Saga, Phase: v.StepAction, Attempt: v.Call}
}

func decodeSagaDeadline(t sim.Timer) sagaDeadline {
	return sagaDeadline{Saga: t.Key, StepAction: t.Phase, Call: t.Attempt}
}

// reservationRow is a participant's record of one step key. Slots: State
// = 1 reserved, 2 cancelled, 3 refused; Value = the record id.
type reservationRow struct {
	State    int32
	RecordID int64
}

const (
	reservationHeld int32 = iota + 1
	reservationCancelled
	reservationRefused
)

func (v reservationRow) encode() sim.Record { return sim.Record{State: v.State, Value: v.RecordID} }

func decodeReservationRow(r sim.Record) reservationRow {
	return reservationRow{State: r.State, RecordID: r.Value}
}
