package payments

import (
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// StepService performs one kind of step — creates a contract, sends an
// e-mail, updates the stock — as an effect on its sink, and acknowledges it
// with the record's id. A step call that carries a key is done at most once
// per key: the key and the record are written together, and a repeat gets
// the first record's id back. A call without a key is always done.
type StepService struct {
	answerer
	Sink sim.SinkID
	// Series prefixes the record ids (series×10 000 + counter), so the ids
	// of two step services never collide. It comes from the option, never
	// from the sink's number, which is a build detail.
	Series int64
}

const (
	stepDoneKeys sim.TableID = iota // step key → record id
	stepCounter                     // row 0: last record id
)

// Receive performs a step, or acknowledges it again.
func (s *StepService) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgStep {
		return
	}
	call := decodeStepCall(m)
	if call.Key != 0 {
		if r, ok := ctx.Get(stepDoneKeys, int64(call.Key), m.Op); ok {
			s.ack(ctx, m, call, decodeStepDoneRow(r).RecordID)
			return
		}
	}
	rec, _ := ctx.Get(stepCounter, 0, m.Op)
	c := decodeCounterRow(rec)
	c.Last++
	ctx.Put(stepCounter, 0, m.Op, c.encode())
	id := s.Series*10_000 + c.Last
	ctx.Effect(s.Sink, m.Op, id)
	if call.Key != 0 {
		ctx.Put(stepDoneKeys, int64(call.Key), m.Op, stepDoneRow{RecordID: id}.encode())
	}
	s.ack(ctx, m, call, id)
}

func (s *StepService) ack(ctx *sim.Context, m sim.Message, call stepCall, id int64) {
	call.RecordID = id
	ctx.Send(m.From, call.encode(envelope{Kind: MsgStepAck, Op: m.Op, Attempt: m.Attempt}))
}

var stepSinks = []string{"contracts", "emails", "stock"}

// sinkOption reads option sink, one of names (the first is the default):
// the sink of that name among sinks, and its series, its place in names
// from 1.
func sinkOption(a *roles.Args, names []string, sinks []sim.SinkID, doc string) (sim.SinkID, int64) {
	i := slices.Index(names, a.Enum("sink", names[0], names, doc))
	return sinks[i], int64(i) + 1
}

// buildStepservice builds a step-service node from its options, each declared where it is read.
func buildStepservice(a *roles.Args) (sim.Node, []sim.TableSpec) {
	sink, series := sinkOption(a, stepSinks, []sim.SinkID{SinkContracts, SinkEmails, SinkStock}, "what the step produces")
	return &StepService{Sink: sink, Series: series}, []sim.TableSpec{
		roles.StoreTable("done", true, []string{"", "DONE"}),
		{Name: "counter", Durable: true},
	}
}
