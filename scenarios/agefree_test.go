package scenarios_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// withAges returns cfg with every table keeping its rows' times: the
// AgeFree declarations of its roles undone. Nodes are shared (roles keep
// no state of their own).
func withAges(cfg *sim.Config) *sim.Config {
	t := cfg.Topology
	aged := &sim.Topology{Messages: t.Messages, Timers: t.Timers, Sinks: t.Sinks, Points: t.Points}
	for _, n := range t.Nodes {
		n.Tables = slices.Clone(n.Tables)
		for i := range n.Tables {
			n.Tables[i].AgeFree = false
		}
		aged.Nodes = append(aged.Nodes, n)
	}
	c := *cfg
	c.Topology = aged
	return &c
}

// ageFreeTables counts the tables of cfg declared age-free.
func ageFreeTables(cfg *sim.Config) int {
	n := 0
	for _, node := range cfg.Topology.Nodes {
		for _, t := range node.Tables {
			if t.AgeFree {
				n++
			}
		}
	}
	return n
}

// runTrace runs one seeded world and returns its trace, with the times of
// the rows of cfg's age-free tables blanked, and its outcome.
func runTrace(t *testing.T, cfg, declared *sim.Config, seed uint64) ([]sim.Event, *sim.Outcome) {
	t.Helper()
	var tr sim.Trace
	w, err := sim.NewWorld(cfg, sim.NewRandom(seed), &tr)
	if err != nil {
		t.Fatal(err)
	}
	out := w.Run()
	for i := range tr.Events {
		e := &tr.Events[i]
		switch e.Kind {
		case sim.EvStoreGet, sim.EvStorePut:
			if declared.Topology.Nodes[e.Node].Tables[e.Label].AgeFree {
				e.Rec.At = 0
			}
		}
	}
	out.Digest = 0 // the digest covers the blanked times
	return tr.Events, out
}

// ageVariants returns the settings TestAgeFreeTablesAreNotRead runs sc
// under: every expectation row, and each semantics with the default faults
// and one parameter changed — every value of an enum, and a few times
// for a duration that defaults to 0 (a TTL switched on: a role declares a
// table age-free only while it has no TTL to read ages for; the times are
// spread so that some rows are younger than the TTL when the clock is
// already past it).
func ageVariants(sc *scenarios.Scenario) map[string]scenarios.Settings {
	out := map[string]scenarios.Settings{}
	for i := range sc.Expect {
		e := &sc.Expect[i]
		out[fmt.Sprintf("expect-%d-%s", i, e.Label())] = e.Settings(sc)
	}
	for _, sem := range sc.Semantics {
		for _, p := range sc.Params {
			var values []string
			switch {
			case p.Kind == scenarios.ParamEnum:
				values = p.Values
			case p.Kind == scenarios.ParamDuration && p.Default == "0":
				values = []string{"200ms", "1200ms", "3s"}
			}
			for _, v := range values {
				out[fmt.Sprintf("%s-%s=%s", sem.Alias(), p.Name, v)] = scenarios.Settings{
					Semantics: sem, Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{p.Name: v}}
			}
		}
	}
	return out
}

// TestAgeFreeTablesAreNotRead runs every scenario of the catalog (see
// ageVariants) with its age-free tables as declared and again with every
// table keeping its rows' times: the traces (row times of age-free tables
// aside), verdicts, invariants and metrics must be the same. A role,
// invariant or metric that read the time of a row of a table it declared
// age-free would read 0 in one run and the write time in the other, and
// diverge here.
func TestAgeFreeTablesAreNotRead(t *testing.T) {
	declaredSomewhere := false
	for _, sc := range scenarios.All() {
		variants := ageVariants(sc)
		names := slices.Sorted(maps.Keys(variants))
		for _, name := range names {
			set := variants[name]
			t.Run(sc.Name+"/"+name, func(t *testing.T) {
				cfg, err := sc.Config(set)
				if err != nil {
					t.Fatal(err)
				}
				if ageFreeTables(cfg) == 0 {
					return
				}
				declaredSomewhere = true
				aged := withAges(cfg)
				for seed := uint64(1); seed <= 24; seed++ {
					got, gotOut := runTrace(t, cfg, cfg, seed)
					want, wantOut := runTrace(t, aged, cfg, seed)
					if !reflect.DeepEqual(got, want) {
						for k := range min(len(got), len(want)) {
							if got[k] != want[k] {
								t.Fatalf("seed %d: the traces part at event %d: %+v with age-free tables, %+v with times", seed, k, got[k], want[k])
							}
						}
						t.Fatalf("seed %d: %d events with age-free tables, %d with times", seed, len(got), len(want))
					}
					if !reflect.DeepEqual(gotOut, wantOut) {
						t.Fatalf("seed %d: outcome %+v with age-free tables, %+v with times", seed, gotOut, wantOut)
					}
				}
			})
		}
	}
	if !declaredSomewhere {
		t.Fatal("no role of the catalog declares an age-free table: the test checks nothing")
	}
}

// TestAgeFreeTablesChangeNoExploreVerdict explores every scenario of the
// catalog within its explore bounds, under each of its semantics, and
// every expectation row that asks for a proof, with the age-free tables as
// declared and with every table keeping times: verdict, completeness and
// counterexample must be the same; only the number of states may shrink.
func TestAgeFreeTablesChangeNoExploreVerdict(t *testing.T) {
	for _, b := range catalogExploreBlocks(t) {
		t.Run(b.name, func(t *testing.T) {
			cfg, err := b.sc.Config(b.set)
			if err != nil {
				t.Fatal(err)
			}
			if ageFreeTables(cfg) == 0 {
				return
			}
			b.opt.MaxStates = 400_000
			got, err := search.Explore(cfg, b.opt)
			if err != nil {
				t.Fatal(err)
			}
			want, err := search.Explore(withAges(cfg), b.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got.Holds != want.Holds || got.Complete != want.Complete || got.Why != want.Why || !slices.Equal(got.Choices, want.Choices) {
				t.Fatalf("age-free: holds=%v complete=%v %q %v; with times: holds=%v complete=%v %q %v",
					got.Holds, got.Complete, got.Why, got.Choices, want.Holds, want.Complete, want.Why, want.Choices)
			}
			if got.States > want.States {
				t.Errorf("age-free tables added states: %d > %d", got.States, want.States)
			}
			t.Logf("holds=%v: %d states age-free, %d with times", got.Holds, got.States, want.States)
		})
	}
}
