package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Message kinds, timers, sinks and crash points of the saga lesson
// (saga-orchestrator, saga-participant), in a file of their own.
var (
	MsgSagaStep       sim.MsgKind // orchestrator → participant: reserve or cancel, under a step key
	MsgSagaStepResult sim.MsgKind // participant → orchestrator: done (record id) or refused (sold out)

	TimerSagaStep sim.TimerKind // the orchestrator calls a step again

	SinkFlights       sim.SinkID // flight seats reserved
	SinkHotels        sim.SinkID // hotel rooms reserved
	SinkTripCharges   sim.SinkID // trips charged to a card
	SinkCancellations sim.SinkID // reservations cancelled by a compensation

	PointAfterSagaStart sim.PointID // the saga is logged, its first step not yet called
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
