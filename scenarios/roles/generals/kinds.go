// Package generals is the Two Generals family: two nodes, one lossy
// valley, a finite protocol — and the agreement invariant no finite
// protocol keeps.
package generals

import "github.com/oncesim/once/scenarios/roles"

// Message kinds, timers and sinks of the Two Generals.
var (
	MsgPlan = roles.Message("plan") // round 1: "attack at dawn"
	MsgAck  = roles.Message("ack")  // rounds 2..N: acknowledgement of the previous round

	TimerDawn = roles.Timer("dawn") // each general decides at dawn

	SinkAAttacks = roles.Sink("general-a-attacks")
	SinkBAttacks = roles.Sink("general-b-attacks")
)
