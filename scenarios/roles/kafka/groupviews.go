package kafka

import "github.com/oncesim/once/sim"

// Typed views of the consumer-group protocol (group.go): join-group,
// assignment, heartbeat, heartbeat-error and leave-group, and the rows the
// group coordinator keeps.

// joinGroup asks the group coordinator for a place in the group. The
// member is the sender. Slots: Attempt Corr.
//
//viewgen:message kind=MsgJoinGroup
type joinGroup struct {
	Corr int32 `slot:"Attempt"`
}

// assignment tells a member the group's generation and whether it owns
// the input partition (Owner 1) or waits as a standby (0). Slots: Key
// Generation, Value Owner, Attempt Corr (of the join it answers; 0 when a
// rebalance hands it the partition).
//
//viewgen:message kind=MsgAssignment
type assignment struct {
	Generation int64 `slot:"Key"`
	Owner      int64 `slot:"Value"`
	Corr       int32 `slot:"Attempt"`
}

// heartbeat says the owner is alive in Generation (heartbeat), or that
// the generation it named is over (heartbeat-error, Status
// ILLEGAL_GENERATION). Slots: Key Generation, Status Err.
//
//viewgen:message kind=caller
type heartbeat struct {
	Generation int64 `slot:"Key"`
	Err        int32 `slot:"Status"`
}

// groupStateRow is the group coordinator's view of the group. Slots:
// Value Generation, Aux Owner (node id + 1; 0 = nobody), Status Beats
// (heartbeats of the owner in this generation).
//
//viewgen:record
type groupStateRow struct {
	Generation int64    `slot:"Value"`
	Owner      int64    `slot:"Aux"`
	Beats      int32    `slot:"Status"`
	At         sim.Time `slot:"At"`
}
