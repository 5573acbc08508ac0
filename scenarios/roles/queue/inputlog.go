package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// InputLog is a replayable log of yesterday's events: event op sits at
// offset op, for op = 1..ops, and never changes. It answers a fetch of an
// offset with that record, or with 404 past the end. Reading it again gives
// the same input — the premise of a deterministic recomputation.
type InputLog struct{}

// Start does nothing: the log only answers.
func (l *InputLog) Start(*sim.Context) {}

// Timer is unused.
func (l *InputLog) Timer(*sim.Context, sim.Timer) {}

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
	ctx.Send(m.From, fetched{Position: offset, Status: roles.StatusOK, Record: roles.Payload(op)}.encode(envelope{Kind: MsgInputRecord, Op: op, Attempt: m.Attempt}))
}

func init() {
	roles.Register(&roles.Role{
		Name: "input-log",
		Doc:  "a replayable log of yesterday's events, one per operation at offset op; answers fetches",
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &InputLog{}, nil
		},
	})
}
