package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// pinger sends one message of kind ping for operation 1 and accepts the
// operation when pong comes back.
type pinger struct{ ping, pong sim.MsgKind }

func (p pinger) Start(ctx *sim.Context) {
	ctx.Send(1, sim.Message{Kind: p.ping, Op: 1, Attempt: 1})
}
func (p pinger) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind == p.pong {
		ctx.Outcome(m.Op, 1, 200)
	}
}
func (pinger) Timer(*sim.Context, sim.Timer) {}

// ponger applies the operation on its sink and answers pong.
type ponger struct {
	pong sim.MsgKind
	sink sim.SinkID
}

func (ponger) Start(*sim.Context) {}
func (p ponger) Receive(ctx *sim.Context, m sim.Message) {
	ctx.Effect(p.sink, m.Op, 1)
	ctx.Send(0, sim.Message{Kind: p.pong, Op: m.Op, Attempt: m.Attempt})
}
func (ponger) Timer(*sim.Context, sim.Timer) {}

// TestNewKindsThroughTheRegistryValue is issue 27's check: a new message
// kind and a new fault kind added by a test through the registry value,
// with no package variable changed. Two copies of the built-in kinds and
// two of the catalog's names are made; one of each is extended; the other
// copies, the built-in kinds and the catalog's names are unchanged; and a
// world run with the extended ones fires the new fault on the new message
// and every renderer names both. Were a package variable the only way in
// (a global RegisterLinkFault, roles.Message), the untouched copies would
// see the new kinds and the test would fail.
func TestNewKindsThroughTheRegistryValue(t *testing.T) {
	builtinFaults, builtinEvents := sim.FaultKindNames(), sim.NumEventKinds
	catalog := scenarios.RoleCatalog().Kinds()
	catalogMessages := slices.Clone(catalog.MessageNames())

	kinds, other := sim.Builtin(), sim.Builtin()
	stall := kinds.AddLinkFault(sim.LinkFaultSpec{Name: "xt-stall", Past: "stalled", Links: sim.Requests, Hold: 250,
		Help: "probability that a request is stalled for 250 ms"})
	names, otherNames := catalog.Clone(), catalog.Clone()
	ping, pong, sink := names.Message("xt-ping"), names.Message("xt-pong"), names.Sink("xt-ledger")

	if _, ok := other.ParseFaultKind("xt-stall"); ok || !slices.Equal(other.FaultKindNames(), builtinFaults) {
		t.Errorf("a second registry sees the fault kind added to the first: %v", other.FaultKindNames())
	}
	if _, ok := sim.ParseFaultKind("xt-stall"); ok || !slices.Equal(sim.FaultKindNames(), builtinFaults) || sim.NumEventKinds != builtinEvents {
		t.Errorf("the built-in kinds changed: %v", sim.FaultKindNames())
	}
	if slices.Contains(otherNames.MessageNames(), "xt-ping") || slices.Contains(catalog.MessageNames(), "xt-ping") ||
		!slices.Equal(catalog.MessageNames(), catalogMessages) {
		t.Error("a message kind added to one copy of the names reached another copy or the catalog's")
	}
	if k, ok := kinds.ParseFaultKind("xt-stall"); !ok || k != stall || len(kinds.FaultKinds()) != len(builtinFaults)+1 {
		t.Fatalf("the extended registry lacks its kind: %v %v", k, ok)
	}

	topo := names.Topology(sim.NodeSpec{Name: "client"}, sim.NodeSpec{Name: "server"})
	topo.Kinds = kinds
	net := network.New(2)
	net.UseKinds(kinds)
	var faults sim.FaultProfile
	if err := kinds.Set(&faults, "xt-stall", "1"); err != nil {
		t.Fatal(err)
	}
	spec := kinds.FaultKind(stall)
	l := net.Link(0, 1)
	l.Delay = 10
	l.Probability[spec.Choice] = faults.Probability[stall]
	l.Hold[spec.Choice] = kinds.HoldOf(&faults, stall)
	net.Link(1, 0).Delay = 10
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	cfg := &sim.Config{
		Topology: topo, Nodes: []sim.Node{pinger{ping, pong}, ponger{pong, sink}}, Network: net, Ops: 1,
		Observe:   sim.Observation{Origin: 0, Request: ping, Processor: 1, Sinks: []sim.SinkID{sink}},
		Semantics: sim.AtLeastOnce,
	}
	trace := &sim.Trace{}
	w, err := sim.NewWorld(cfg, sim.NewRandom(1), trace)
	if err != nil {
		t.Fatal(err)
	}
	o := w.Run()

	stalled := -1
	for i, e := range trace.Events {
		if kinds.EventSpec(e.Kind).Fault == spec.Choice {
			stalled = i
		}
	}
	if stalled < 0 || trace.Events[stalled].Msg.Kind != ping {
		t.Fatalf("the new fault never hit the new message at probability 1 (event %d)", stalled)
	}
	if o.Faults.Of(spec.Choice) != 1 {
		t.Errorf("fault counts: %d xt-stall, want 1", o.Faults.Of(spec.Choice))
	}
	var deliver sim.Time
	for _, e := range trace.Events {
		if e.Kind == sim.EvDeliver && e.Msg.Kind == ping {
			deliver = e.At
		}
	}
	if deliver != 10+250 {
		t.Errorf("the stalled ping arrived at %v, want 260ms (10 ms delay + 250 ms hold)", deliver)
	}

	var text, mermaid bytes.Buffer
	if err := report.WriteTimeline(&text, topo, trace.Events); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteMermaid(&mermaid, topo, trace.Events); err != nil {
		t.Fatal(err)
	}
	for view, got := range map[string]string{
		"timeline": text.String(), "mermaid": mermaid.String(),
		"trace line":   report.Describe(topo, &trace.Events[stalled]),
		"fault counts": strings.Join(report.FaultCountPartsIn(kinds, o.Faults), ", "),
	} {
		want := []string{"xt-stall", "xt-ping"}
		if view == "fault counts" {
			want = []string{"1 stalled"}
		}
		for _, s := range want {
			if !strings.Contains(got, s) {
				t.Errorf("the %s lacks %q:\n%s", view, s, got)
			}
		}
	}
	// The same trace read with the built-in kinds does not know the kind:
	// the name comes from the registry the topology carries, not from a
	// package table.
	plain := names.Topology(sim.NodeSpec{Name: "client"}, sim.NodeSpec{Name: "server"})
	if got := report.Describe(plain, &trace.Events[stalled]); strings.Contains(got, "xt-stall") {
		t.Errorf("the built-in kinds name the added kind: %q", got)
	}
}

// TestScenarioFileSetsAnAddedFaultKind: the loader reads a faults:
// mapping over the registry it is given, so a scenario file can set a
// kind a test added; the same file loaded with the built-in kinds is
// refused naming the field; and the scenario's worlds carry the registry,
// so the kind fires and the trace names it.
func TestScenarioFileSetsAnAddedFaultKind(t *testing.T) {
	cat := scenarios.RoleCatalog().Clone()
	kinds := cat.Engine()
	kinds.AddLinkFault(sim.LinkFaultSpec{Name: "xt-stall", Past: "stalled", Links: sim.AllLinks, Hold: 250})
	data, err := os.ReadFile(filepath.Join("..", "scenarios", "catalog", "double-billing.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	file := strings.Replace(string(data), "faults: {loss: 0.1, ack-loss: 0.3}", "faults: {xt-stall: 1}", 1)
	if file == string(data) {
		t.Fatal("double-billing.yaml's faults: line moved: the test would load the file unchanged")
	}
	if _, err := scenarios.Load("stall.yaml", []byte(file)); err == nil || !strings.Contains(err.Error(), `unknown fault "xt-stall"`) {
		t.Fatalf("the built-in kinds accept xt-stall: %v", err)
	}
	sc, err := scenarios.LoadWith(cat, "stall.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 1, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	trace := &sim.Trace{}
	w, err := sim.NewWorld(cfg, sim.NewRandom(1), trace)
	if err != nil {
		t.Fatal(err)
	}
	o := w.Run()
	if got := strings.Join(report.FaultCountPartsIn(kinds, o.Faults), ", "); !strings.Contains(got, "stalled") {
		t.Errorf("fault counts %q: the added kind never fired at probability 1", got)
	}
	var text bytes.Buffer
	if err := report.WriteTimeline(&text, cfg.Topology, trace.Events); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "xt-stall") {
		t.Errorf("the timeline lacks xt-stall:\n%s", text.String())
	}
}
