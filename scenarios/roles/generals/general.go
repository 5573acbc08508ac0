package generals

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// General runs one side of an N-round protocol. General A sends the plan
// (round 1); whoever receives round k < N sends round k+1. Messages are
// sent once — the argument does not depend on retries, only on the
// protocol being finite. At dawn each general attacks if and only if it
// received every round addressed to it; general A, having sent the plan,
// also needs nothing more when N = 1.
type General struct {
	Peer   sim.NodeID
	First  bool // general A: sends round 1
	Rounds int32
	Dawn   sim.Time
	Sink   sim.SinkID
}

const generalReceived sim.TableID = 0 // row 0: rounds received (count)

// Start sends the plan (general A) and waits for dawn.
func (g *General) Start(ctx *sim.Context) {
	ctx.After(g.Dawn, sim.Timer{Kind: TimerDawn, Op: generalsOp})
	if g.First {
		ctx.Send(g.Peer, messenger{Round: 1}.encode(MsgPlan))
	}
}

// Receive records a round and answers it with the next one.
func (g *General) Receive(ctx *sim.Context, m sim.Message) {
	rec, _ := ctx.Get(generalReceived, 0, generalsOp)
	r := decodeReceivedRow(rec)
	r.Count++
	ctx.Put(generalReceived, 0, generalsOp, r.encode())
	if round := decodeMessenger(m).Round; round < g.Rounds {
		ctx.Send(g.Peer, messenger{Round: round + 1}.encode(MsgAck))
	}
}

// expected is how many rounds are addressed to this general.
func (g *General) expected() int64 {
	if g.First {
		return int64(g.Rounds / 2) // rounds 2, 4, …
	}
	return int64((g.Rounds + 1) / 2) // rounds 1, 3, …
}

// Timer decides at dawn.
func (g *General) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerDawn {
		return
	}
	r, _ := ctx.Get(generalReceived, 0, generalsOp)
	if decodeReceivedRow(r).Count >= g.expected() {
		ctx.Effect(g.Sink, generalsOp, 1)
	}
}

// buildGeneral builds a general node from its options, each declared where it is read.
func buildGeneral(a *roles.Args) (sim.Node, []sim.TableSpec) {
	g := &General{
		Peer:   a.Node("peer", "the other general"),
		First:  a.Bool("first", false, "sends the plan (general A)"),
		Rounds: int32(a.Int("rounds", 1, 1, 1000, "messages in the protocol (the plan, then acks of acks)")),
		Dawn:   a.Duration("dawn", "10s", "when both decide"),
	}
	g.Sink = SinkBAttacks
	if g.First {
		g.Sink = SinkAAttacks
	}
	if g.Dawn <= 0 {
		a.Fail("dawn", "dawn must be after 0")
	}
	return g, []sim.TableSpec{{Name: "received", Durable: true, AgeFree: true}}
}
