package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// InputLog is a replayable log of yesterday's events: event op sits at
// offset op, for op = 1..ops, and never changes. It answers a fetch of an
// offset with that record and its event-time hour, or with 404 past the
// end. Reading it again gives the same input — the premise of a
// deterministic recomputation.
//
// Events arrive roughly in event-time order: offset op belongs to hour
// (op-1)/PerHour, except that every LateEvery-th event (0: none) is late —
// it belongs to the hour before, but sits in the log among the next hour's
// events, after its own hour has been closed.
type InputLog struct {
	passive
	PerHour   int64
	LateEvery int64
}

// EventHour is the event-time hour of the event at offset op.
func (l *InputLog) EventHour(op int64) int64 {
	hour := (op - 1) / l.PerHour
	if l.LateEvery > 0 && op%l.LateEvery == 0 && hour > 0 && (op-1)%l.PerHour > 0 {
		return hour - 1
	}
	return hour
}

// Receive answers a fetch.
func (l *InputLog) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgReadInput {
		return
	}
	offset := decodeFetch(m).Position
	if offset < 1 || offset > int64(ctx.Ops()) {
		ctx.Send(m.From, fetched{Position: offset, Status: statusEndOfLog}.encode(envelope{Kind: MsgInputRecord, Attempt: m.Attempt}))
		return
	}
	op := sim.OpID(offset)
	ctx.Send(m.From, fetched{Position: offset, Status: roles.StatusOK, Record: roles.Payload(op), Hour: l.EventHour(offset)}.encode(envelope{Kind: MsgInputRecord, Op: op, Attempt: m.Attempt}))
}

// buildInputlog builds a input-log node from its options, each declared where it is read.
func buildInputlog(a *roles.Args) (sim.Node, []sim.TableSpec) {
	return &InputLog{
		PerHour:   a.Int("per-hour", 3, 1, 1000, "events per hour of event time"),
		LateEvery: a.Int("late-every", 0, 0, 1000, "every n-th event belongs to the hour before its neighbours' (0: none is late)"),
	}, nil
}
