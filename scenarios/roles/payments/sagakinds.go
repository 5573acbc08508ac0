package payments

import "github.com/oncesim/once/scenarios/roles"

// Message kinds, timers, sinks and crash points of the saga lesson
// (saga-orchestrator, saga-participant), in a file of their own.
var (
	MsgSagaStep       = roles.Message("saga-step")        // orchestrator → participant: reserve or cancel, under a step key
	MsgSagaStepResult = roles.Message("saga-step-result") // participant → orchestrator: done (record id) or refused (sold out)

	TimerSagaStep = roles.Timer("saga-step-timeout") // the orchestrator calls a step again

	SinkFlights       = roles.Sink("flights")       // flight seats reserved
	SinkHotels        = roles.Sink("hotels")        // hotel rooms reserved
	SinkTripCharges   = roles.Sink("trip-charges")  // trips charged to a card
	SinkCancellations = roles.Sink("cancellations") // reservations cancelled by a compensation

	PointAfterSagaStart = roles.Point("after-saga-start") // the saga is logged, its first step not yet called
)

// Saga step actions, and the saga states in an orchestrator's log.
const (
	sagaReserve int32 = iota + 1
	sagaCancel
)

const (
	sagaRunning int32 = iota + 1
	sagaCompensating
	sagaCompleted
	sagaAborted
)

// sagaStates names the saga states in a trace.
var sagaStates = []string{"", "RUNNING", "COMPENSATING", "COMPLETED", "ABORTED"}

// statusSoldOut is a participant's refusal, and the order's final answer
// when its saga was compensated: the order cannot be fulfilled.
const statusSoldOut = roles.StatusUnprocessable
