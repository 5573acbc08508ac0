package scenarios

import "github.com/oncesim/once/sim"

// Message kinds, timers, sinks and crash points of the second HTTP family:
// key issuing, reconciliation of unknown outcomes, rate limits and
// multi-step operations.
//
// They are registered in init, not in variable initialisers: package
// variables are initialised before any init function runs, so these names
// are numbered after every name registered by a variable (kinds.go and the
// other families) and never shift the numbers — and with them the trace
// digests — of the scenarios that existed before them.
var (
	MsgOrder         sim.MsgKind // client → order service: POST /orders [Idempotency-Key]
	MsgOrderResponse sim.MsgKind // order service → client
	MsgStep          sim.MsgKind // order service → a step service: do one step [step key]
	MsgStepAck       sim.MsgKind // step service → order service: step done (its record id)
	MsgUnknown       sim.MsgKind // intent service → reconciler: this key's outcome is unknown
	MsgResolved      sim.MsgKind // reconciler → intent service: charged (txn) or not found

	TimerCallTimeout sim.TimerKind // a service gives up waiting for its provider
	TimerReconcile   sim.TimerKind // the reconciler's pace: one lookup per tick
	TimerBackoff     sim.TimerKind // the fixed wait before the one retry
	TimerStepTimeout sim.TimerKind // the order service gives up waiting for a step
	TimerCoreTimeout sim.TimerKind // the provider's edge gives up on its billing core

	SinkContracts sim.SinkID // contracts created
	SinkEmails    sim.SinkID // e-mails sent
	SinkStock     sim.SinkID // stock updates applied

	PointBetweenSteps sim.PointID // a step acknowledged, the next not yet called
)

// HTTP status codes used only by this family.
const (
	StatusAccepted       = 202 // accepted; the result is to be asked for later (carries a server-issued key)
	StatusGatewayTimeout = 504 // the provider's edge timed out on its core: the charge may or may not have happened
)

func init() {
	MsgOrder = newMessage("order")
	MsgOrderResponse = newMessage("order-response")
	MsgStep = newMessage("step")
	MsgStepAck = newMessage("step-ack")
	MsgUnknown = newMessage("unknown-outcome")
	MsgResolved = newMessage("resolved")

	TimerCallTimeout = newTimer("call-timeout")
	TimerReconcile = newTimer("reconcile")
	TimerBackoff = newTimer("backoff")
	TimerStepTimeout = newTimer("step-timeout")
	TimerCoreTimeout = newTimer("core-timeout")

	SinkContracts = newSink("contracts")
	SinkEmails = newSink("emails")
	SinkStock = newSink("stock")

	PointBetweenSteps = newPoint("between-steps")
}
