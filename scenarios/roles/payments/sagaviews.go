package payments

import "github.com/oncesim/once/scenarios/roles"

// sagaStepCall is a step call and its answer (MsgSagaStep,
// MsgSagaStepResult): the answer echoes the call. Slots: Key = the step
// key (sagaStepKey: saga, step and action, which the participant reads
// from it); Payload = the saga id; Status = the answer's status (0 in a
// call); Value = the participant's record id (0 in a call). The envelope's
// Attempt is the call of that step (1-based).
//
//viewgen:message envelope
type sagaStepCall struct {
	Key      idemKey `slot:"Key"`
	Saga     int64   `slot:"Payload"`
	Status   int32   `slot:"Status"`
	RecordID int64   `slot:"Value"`
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
//
//viewgen:record
type sagaRow struct {
	State   int32 `slot:"State"`
	Step    int32 `slot:"Status"`
	Saga    int64 `slot:"Value"`
	Attempt int32 `slot:"Aux"`
}

// sagaDeadline is the orchestrator's deadline for one call of a step
// (TimerSagaStep). Slots: Key = the saga; Phase = step·10 + action; Attempt
// = the call (1-based).
//
//viewgen:timer kind=TimerSagaStep
type sagaDeadline struct {
	Saga       int64 `slot:"Key"`
	StepAction int32 `slot:"Phase"`
	Call       int32 `slot:"Attempt"`
}

// reservationRow is a participant's record of one step key. Slots: State
// = 1 reserved, 2 cancelled, 3 refused; Value = the record id.
//
//viewgen:record
type reservationRow struct {
	State    int32 `slot:"State"`
	RecordID int64 `slot:"Value"`
}

const (
	reservationHeld int32 = iota + 1
	reservationCancelled
	reservationRefused
)
