package live

import (
	"strings"
	"testing"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// stamped is what the simulator's world does before a Chooser sees a
// choice: it stamps the choice's key.
type stamped struct {
	topo  *sim.Topology
	inner sim.Chooser
}

func (s stamped) Choose(c sim.Choice) int {
	c.Key = s.topo.ChoiceKey(&c)
	return s.inner.Choose(c)
}

// The fault layer's decisions are the simulated network's, message by
// message: the same seed drops, duplicates and delays the same messages,
// because both ask the same keyed choices.
func TestDeciderMatchesTheSimulatedNetwork(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 5, Faults: sc.Faults}
	set.Faults.Probability[sim.FaultDup] = 0.2
	set.Faults.Probability[sim.FaultSlow] = 0.1
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	netw := cfg.Network.(*network.Network)
	topo := cfg.Topology
	pay, _ := topo.MessageByName("pay")
	resp, _ := topo.MessageByName("pay-response")
	client, _ := topo.NodeByName("client")
	service, _ := topo.NodeByName("service")
	faults := 0
	for seed := uint64(1); seed <= 20; seed++ {
		dec := NewDecider(topo, netw, sim.NewRandom(seed), nil)
		simulated := stamped{topo, sim.NewRandom(seed)}
		for op := sim.OpID(1); op <= 5; op++ {
			for attempt := int32(1); attempt <= 3; attempt++ {
				for _, m := range []sim.Message{
					{From: client, To: service, Kind: pay, Op: op, Attempt: attempt},
					{From: service, To: client, Kind: resp, Op: op, Attempt: attempt},
				} {
					got := dec.Transmit(m)
					want := netw.Transmit(simulated, &m, 0)
					if got.Drop != (want.Drop == sim.DropLoss) || got.Duplicate != want.Duplicated() || got.Slow != want.Faults.Has(sim.ChoiceSlow) ||
						(!got.Drop && (got.Delay != want.Delay || got.Duplicate && got.DupDelay != want.DupDelay)) {
						t.Fatalf("seed %d %s op %d attempt %d: live %+v, simulated %+v", seed, topo.MessageName(m.Kind), op, attempt, got, want)
					}
					if got.Drop || got.Duplicate || got.Slow {
						faults++
					}
				}
			}
		}
	}
	if faults == 0 {
		t.Fatal("no fault in 20 seeds: the comparison compared nothing")
	}
}

// A crash is decided like the simulator's crash point: same node, point,
// message, op and attempt, same answer.
func TestDeciderCrashMatchesTheSimulator(t *testing.T) {
	cfg := idemConfig(t, "mark-after-effect")
	topo := cfg.Topology
	service, _ := topo.NodeByName("service")
	point, _ := topo.PointByName("after-charge")
	result, _ := topo.MessageByName("charge-result")
	p := topo.Nodes[service].CrashProbability
	crashes := 0
	for seed := uint64(1); seed <= 20; seed++ {
		dec := NewDecider(topo, cfg.Network.(*network.Network), sim.NewRandom(seed), nil)
		simulated := stamped{topo, sim.NewRandom(seed)}
		for op := sim.OpID(1); op <= 5; op++ {
			m := sim.Message{Kind: result, Op: op, Attempt: 1}
			want := simulated.Choose(sim.Choice{Kind: sim.ChoiceCrash, N: 2, P: p, Node: service, Peer: sim.NoNode,
				Point: point, Msg: result, Op: op, Attempt: 1}) == 1
			if got := dec.Crash(service, point, m); got != want {
				t.Fatalf("seed %d op %d: live crash %v, simulated %v", seed, op, got, want)
			}
			if want {
				crashes++
			}
		}
	}
	if crashes == 0 {
		t.Fatal("no crash in 20 seeds: the comparison compared nothing")
	}
}

func TestRebind(t *testing.T) {
	pg := &DB{Dialect: Postgres}
	if got := pg.Rebind("INSERT INTO t (a, b) VALUES (?, ?)"); got != "INSERT INTO t (a, b) VALUES ($1, $2)" {
		t.Fatalf("postgres: %s", got)
	}
	lite := &DB{Dialect: SQLite}
	if got := lite.Rebind("SELECT ?"); got != "SELECT ?" {
		t.Fatalf("sqlite: %s", got)
	}
}

// The evidence of a disagreement names where the two runs part — the
// request the simulator drops at a down service and live delivers — and
// the shift that explains it: the crash came later live.
func TestEvidenceNamesWhereRunsPart(t *testing.T) {
	cfg := idemConfig(t, "mark-after-effect")
	topo := cfg.Topology
	client, _ := topo.NodeByName("client")
	service, _ := topo.NodeByName("service")
	pay, _ := topo.MessageByName("pay")
	point, _ := topo.PointByName("after-charge")
	send := sim.Event{Kind: sim.EvSend, Node: client, Peer: service, Msg: sim.Message{Kind: pay, Op: 3, Attempt: 1}}
	crash := sim.Event{Kind: sim.EvCrash, Node: service, Peer: sim.NoNode, Label: uint16(point), Msg: sim.Message{Op: 2, Attempt: 1}}
	drop := sim.Event{Kind: sim.EvDrop, Node: client, Peer: service, Reason: sim.DropDown, Msg: send.Msg}
	deliver := sim.Event{Kind: sim.EvDeliver, Node: service, Peer: client, Msg: send.Msg}
	at := func(e sim.Event, t sim.Time) sim.Event { e.At = t; return e }
	first, last := deliver, drop // both worlds deliver and drop a request
	first.Msg.Op, last.Msg.Op = 1, 5
	simT := []sim.Event{at(first, 40), at(crash, 185), at(send, 200), at(drop, 248), at(last, 500)}
	liveT := []sim.Event{at(first, 40), at(send, 200), at(deliver, 248), at(crash, 282), at(last, 500)}
	ev := compare(topo, simT, liveT)
	if !strings.HasPrefix(ev.OnlySim, "248 drop(") || !strings.Contains(ev.OnlySim, "op-3 #1") {
		t.Errorf("only in sim: %q", ev.OnlySim)
	}
	if !strings.HasPrefix(ev.OnlyLive, "248 deliver") {
		t.Errorf("only live: %q", ev.OnlyLive)
	}
	if !strings.Contains(ev.Shift, "op-2 #1: 185 → 282") {
		t.Errorf("shift: %q", ev.Shift)
	}
}

// idemConfig is scenario name's world under idempotent semantics: 5
// operations, the scenario's own faults.
func idemConfig(t *testing.T, name string) *sim.Config {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.Idempotent, Ops: 5, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
