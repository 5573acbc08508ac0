package kafka

import "github.com/oncesim/once/sim"

// Typed views of the consumer-group protocol (group.go): join-group,
// assignment, heartbeat, heartbeat-error and leave-group, and the rows the
// group coordinator keeps.

// joinGroup asks the group coordinator for a place in the group. The
// member is the sender. Slots: Attempt Corr.
type joinGroup struct {
	Corr int32
}

func (j joinGroup) encode() sim.Message { return sim.Message{Kind: MsgJoinGroup, Attempt: j.Corr} }

func decodeJoinGroup(m sim.Message) joinGroup { return joinGroup{Corr: m.Attempt} }

// assignment tells a member the group's generation and whether it owns
// the input partition (Owner 1) or waits as a standby (0). Slots: Key
// Generation, Value Owner, Attempt Corr (of the join it answers; 0 when a
// rebalance hands it the partition).
type assignment struct {
	Generation int64
	Owner      int64
	Corr       int32
}

func (a assignment) encode() sim.Message {
	return sim.Message{Kind: MsgAssignment, Key: a.Generation, Value: a.Owner, Attempt: a.Corr}
}

func decodeAssignment(m sim.Message) assignment {
	return assignment{Generation: m.Key, Owner: m.Value, Corr: m.Attempt}
}

// heartbeat says the owner is alive in Generation (heartbeat), or that
// the generation it named is over (heartbeat-error, Status
// ILLEGAL_GENERATION). Slots: Key Generation, Status Err.
type heartbeat struct {
	Generation int64
	Err        int32
}

func (h heartbeat) encode(kind sim.MsgKind) sim.Message {
	return sim.Message{Kind: kind, Key: h.Generation, Status: h.Err}
}

func decodeHeartbeat(m sim.Message) heartbeat { return heartbeat{Generation: m.Key, Err: m.Status} }

// groupStateRow is the group coordinator's view of the group. Slots:
// Value Generation, Aux Owner (node id + 1; 0 = nobody), Status Beats
// (heartbeats of the owner in this generation).
type groupStateRow struct {
	Generation int64
	Owner      int64
	Beats      int32
	At         sim.Time
}

func (g groupStateRow) encode() sim.Record {
	return sim.Record{Value: g.Generation, Aux: g.Owner, Status: g.Beats, At: g.At}
}

func decodeGroupStateRow(r sim.Record) groupStateRow {
	return groupStateRow{Generation: r.Value, Owner: r.Aux, Beats: r.Status, At: r.At}
}
