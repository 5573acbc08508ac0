package scenarios_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// echoFile is a scenario of the test's own roles, kinds and invariant.
const echoFile = `name: xt-echo
topology: custom
summary: "a role, two message kinds, a sink and an invariant a test added"
semantics: [alo]
ops: 1
nodes:
  - {name: client, role: xt-pinger}
  - {name: server, role: xt-ponger}
links:
  - {from: client, to: server, class: request, delay: 10ms}
  - {from: server, to: client, class: response, delay: 10ms}
observe: {origin: client, request: xt-ping, processor: server, sinks: [xt-ledger]}
invariants: [xt-pinged-once]
metrics: [xt-pings]
`

// xtPinger sends one ping for operation 1 and accepts the pong.
type xtPinger struct{ ping, pong sim.MsgKind }

func (p xtPinger) Start(ctx *sim.Context) {
	ctx.Send(1, sim.Message{Kind: p.ping, Op: 1, Attempt: 1})
}
func (p xtPinger) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind == p.pong {
		ctx.Outcome(m.Op, 1, 200)
	}
}
func (xtPinger) Timer(*sim.Context, sim.Timer) {}

// xtPonger applies each ping on its sink and answers pong.
type xtPonger struct {
	pong sim.MsgKind
	sink sim.SinkID
}

func (xtPonger) Start(*sim.Context) {}
func (p xtPonger) Receive(ctx *sim.Context, m sim.Message) {
	ctx.Effect(p.sink, m.Op, 1)
	ctx.Send(0, sim.Message{Kind: p.pong, Op: m.Op, Attempt: m.Attempt})
}
func (xtPonger) Timer(*sim.Context, sim.Timer) {}

// pingedOnce counts the pings delivered: more than one violates it.
type pingedOnce struct {
	ping sim.MsgKind
	n    int
}

func (i *pingedOnce) Record(e *sim.Event) {
	if e.Kind == sim.EvDeliver && e.Msg.Kind == i.ping {
		i.n++
	}
}
func (i *pingedOnce) Name() string { return "xt-pinged-once" }
func (i *pingedOnce) Violation(bool) string {
	if i.n > 1 {
		return fmt.Sprintf("%d pings delivered", i.n)
	}
	return ""
}
func (i *pingedOnce) Clone() sim.Invariant        { c := *i; return &c }
func (i *pingedOnce) AppendState(b []byte) []byte { return append(b, byte(i.n)) }

// pings counts the pings delivered, as a metric.
type pings struct{ pingedOnce }

func (p *pings) Name() string   { return "xt-pings" }
func (p *pings) Value() float64 { return float64(p.n) }

// TestANewRoleThroughTheCatalogValue is issue 27's check for the roles'
// catalog: a test adds two roles, two message kinds, a sink, an invariant
// and a metric to a copy of the catalog — no package variable changed, no
// init function — loads a scenario file that names them with that copy,
// and runs it: the new kinds travel, the new invariant judges, the
// trace names them and the report gives the metric its unit. The catalog itself, and a file loaded with it, know
// none of them.
func TestANewRoleThroughTheCatalogValue(t *testing.T) {
	shared := scenarios.RoleCatalog()
	sharedMessages := slices.Clone(shared.Kinds().MessageNames())
	cat := shared.Clone()
	k := cat.Kinds()
	ping, pong, ledger := k.Message("xt-ping"), k.Message("xt-pong"), k.Sink("xt-ledger")
	cat.Register(&roles.Role{Name: "xt-pinger", Doc: "sends one ping", New: func(*roles.Args) (sim.Node, []sim.TableSpec) {
		return xtPinger{ping, pong}, nil
	}})
	cat.Register(&roles.Role{Name: "xt-ponger", Doc: "answers pong", New: func(*roles.Args) (sim.Node, []sim.TableSpec) {
		return xtPonger{pong, ledger}, nil
	}})
	cat.RegisterInvariant(&roles.InvariantSpec{Name: "xt-pinged-once", Doc: "one ping delivered", New: func(*sim.Topology) sim.Invariant {
		return &pingedOnce{ping: ping}
	}})
	cat.RegisterMetric(&roles.MetricSpec{Name: "xt-pings", Unit: "pings", Doc: "pings delivered", New: func(*sim.Topology) sim.Metric {
		return &pings{pingedOnce{ping: ping}}
	}})

	if _, err := scenarios.Load("xt-echo.yaml", []byte(echoFile)); err == nil || !strings.Contains(err.Error(), `unknown role "xt-pinger"`) {
		t.Errorf("the shared catalog loads a file of the test's roles: %v", err)
	}
	if _, ok := shared.Lookup("xt-pinger"); ok || !slices.Equal(shared.Kinds().MessageNames(), sharedMessages) {
		t.Error("a role or a kind added to the copy reached the shared catalog")
	}
	if _, ok := shared.LookupInvariant("xt-pinged-once"); ok {
		t.Error("an invariant added to the copy reached the shared catalog")
	}

	sc, err := scenarios.LoadWith(cat, "xt-echo.yaml", []byte(echoFile))
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 1}
	r, err := runs.Execute(sc, set, sim.NewRandom(1), runs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Outcome.Count(sim.ExactlyOnce); got != 1 || len(r.Outcome.Invariants) != 1 || r.Outcome.Invariants[0].Violation != "" {
		t.Errorf("the run: %d exactly-once, invariants %+v; want 1 and xt-pinged-once holding", got, r.Outcome.Invariants)
	}
	if len(r.Outcome.Metrics) != 1 || r.Outcome.Metrics[0].Value != 1 || r.Report().MetricUnits["xt-pings"] != "pings" {
		t.Errorf("the metric: %+v, units %v; want xt-pings = 1 in pings", r.Outcome.Metrics, r.Report().MetricUnits)
	}
	var names []string
	for _, e := range r.Trace.Events {
		if e.Kind == sim.EvSend {
			names = append(names, r.Config.Topology.MessageName(e.Msg.Kind))
		}
	}
	if !slices.Equal(names, []string{"xt-ping", "xt-pong"}) {
		t.Errorf("the trace sends %v, want [xt-ping xt-pong]", names)
	}

	// The same file run with its ping delivered twice: the added invariant
	// bites.
	set.Faults.Probability[sim.FaultDup] = 1
	if r, err = runs.Execute(sc, set, sim.NewRandom(1), runs.Options{}); err != nil {
		t.Fatal(err)
	}
	if len(r.Outcome.Invariants) != 1 || r.Outcome.Invariants[0].Violation == "" {
		t.Errorf("every message duplicated: invariants %+v, want xt-pinged-once violated", r.Outcome.Invariants)
	}
}
