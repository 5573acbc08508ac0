// Package generals is the Two Generals family: two nodes, one lossy
// valley, a finite protocol — and the agreement invariant no finite
// protocol keeps.
package generals

import "github.com/oncesim/once/sim"

// Message kinds, timers and sinks of the Two Generals.
var (
	MsgPlan sim.MsgKind // round 1: "attack at dawn"
	MsgAck  sim.MsgKind // rounds 2..N: acknowledgement of the previous round

	TimerDawn sim.TimerKind // each general decides at dawn

	SinkAAttacks sim.SinkID
	SinkBAttacks sim.SinkID
)
