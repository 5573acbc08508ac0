package scenarios_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
	"github.com/oncesim/once/sim/simrapid"
)

// exploreConfig builds the engine configuration an exhaustive search of
// name uses: the fault kinds in kinds, everything else from the scenario.
func exploreConfig(t testing.TB, name string, sem sim.Semantics, ops int, kinds string, params map[string]string) *sim.Config {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	faults, _, err := scenarios.ExploreFaults(kinds)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: ops, Faults: faults, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// shrunk returns the explorer's counterexample as a minimal fault plan.
func shrunk(t testing.TB, cfg *sim.Config, promise sim.Promise, res *search.Result) []sim.Fault {
	t.Helper()
	rec := sim.NewRecording(&sim.Sequence{Answers: res.Choices})
	w, err := sim.NewWorld(cfg, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Run()
	violates := func(plan []sim.Fault) bool {
		v, _, err := search.Violates(cfg, promise, plan, nil, nil)
		return err == nil && v
	}
	if !violates(rec.Faults) {
		t.Fatalf("the explorer's path does not reproduce the violation: %v", rec.Faults)
	}
	return search.Shrink(rec.Faults, violates)
}

func TestExploreProvesIdempotentPayments(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.Idempotent, 2, "loss,ack-loss,crash", nil)
	res, err := search.Explore(cfg, search.Options{MaxFaults: 3, Promise: sim.ExactlyOne})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Holds || !res.Complete {
		t.Fatalf("idempotent payments with a durable store: holds=%v complete=%v %s %s", res.Holds, res.Complete, res.Why, res.Cut)
	}
	if res.States < 100 {
		t.Errorf("suspiciously small search: %d states", res.States)
	}
	t.Logf("proof: %d distinct states, %d schedules, depth %d", res.States, res.Schedules, res.MaxDepth)
}

func TestExploreFindsOneLostResponseUnderAtLeastOnce(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.AtLeastOnce, 2, "loss,ack-loss,crash", nil)
	res, err := search.Explore(cfg, search.Options{MaxFaults: 3, Promise: sim.ExactlyOne})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds {
		t.Fatal("at-least-once charges twice, but the explorer found no schedule")
	}
	plan := shrunk(t, cfg, sim.ExactlyOne, res)
	if len(plan) != 1 {
		t.Fatalf("want a one-fault counterexample, got %v", plan)
	}
	f := plan[0]
	if f.Kind != sim.ChoiceLoss || cfg.Topology.MessageName(f.Msg) != "pay-response" {
		t.Fatalf("want a lost pay-response, got %s", scenarios.FaultLine(cfg.Topology, f))
	}
}

func TestExploreFindsTheCrashOfAnInMemoryKeyStore(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.Idempotent, 2, "loss,ack-loss,crash", map[string]string{"store": "memory"})
	res, err := search.Explore(cfg, search.Options{MaxFaults: 2, Promise: sim.ExactlyOne})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds {
		t.Fatal("an in-memory key store loses keys in a crash, but no counterexample was found")
	}
	plan := shrunk(t, cfg, sim.ExactlyOne, res)
	crashes := 0
	for _, f := range plan {
		if f.Kind == sim.ChoiceCrash {
			crashes++
		}
	}
	if crashes == 0 {
		t.Fatalf("the counterexample has no crash: %v", plan)
	}
}

// TestTwoGenerals: for every protocol length there is a schedule where the
// generals disagree, and it cuts the last message; without loss they agree.
func TestTwoGenerals(t *testing.T) {
	for n := 1; n <= 6; n++ {
		t.Run(fmt.Sprintf("rounds=%d", n), func(t *testing.T) {
			params := map[string]string{"rounds": fmt.Sprint(n)}
			cfg := exploreConfig(t, "two-generals", sim.AtMostOnce, 1, "loss", params)
			res, err := search.Explore(cfg, search.Options{MaxFaults: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Holds {
				t.Fatalf("no disagreeing schedule found for %d rounds", n)
			}
			plan := shrunk(t, cfg, sim.AtMostOne, res)
			if len(plan) != 1 || plan[0].Kind != sim.ChoiceLoss || plan[0].Attempt != int32(n) {
				t.Fatalf("want the cut of message %d, got %v", n, plan)
			}
			free, err := search.Explore(cfg, search.Options{MaxFaults: 0})
			if err != nil {
				t.Fatal(err)
			}
			if !free.Holds || !free.Complete {
				t.Fatalf("with no loss the generals must agree: %s", free.Why)
			}
		})
	}
}

// TestReplayReproducesCounterexample: the shrunk plan, replayed through the
// scripted chooser, violates again with the same trace digest every time.
func TestReplayReproducesCounterexample(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.AtLeastOnce, 2, "loss,ack-loss,crash", nil)
	res, err := search.Explore(cfg, search.Options{MaxFaults: 2, Promise: sim.ExactlyOne})
	if err != nil {
		t.Fatal(err)
	}
	plan := shrunk(t, cfg, sim.ExactlyOne, res)
	v1, w1, err := search.Violates(cfg, sim.ExactlyOne, plan, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	v2, w2, err := search.Violates(cfg, sim.ExactlyOne, plan, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !v1 || !v2 || w1.Digest() != w2.Digest() {
		t.Fatalf("replay: violated %v/%v, digests %x/%x", v1, v2, w1.Digest(), w2.Digest())
	}
}

func BenchmarkExploreDoubleBilling(b *testing.B) {
	cfg := exploreConfig(b, "double-billing", sim.Idempotent, 5, "loss,ack-loss", nil)
	states := 0
	for b.Loop() {
		res, err := search.Explore(cfg, search.Options{MaxFaults: 6, Promise: sim.ExactlyOne})
		if err != nil || !res.Holds {
			b.Fatal(err, res.Why)
		}
		states += res.States
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
}

func BenchmarkExploreTwoGenerals(b *testing.B) {
	cfg := exploreConfig(b, "two-generals", sim.AtMostOnce, 1, "loss", map[string]string{"rounds": "12"})
	states := 0
	for b.Loop() {
		res, err := search.Explore(cfg, search.Options{MaxFaults: 12, Promise: sim.AtMostOne, Kinds: sim.KindSet(0).With(sim.ChoiceLoss)})
		if err != nil {
			b.Fatal(err)
		}
		states += res.States
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
}

// TestExploreStateCacheIsSound compares the explorer with its state cache
// against a stateless search (every schedule run to its end) on small
// bounds: the verdicts must agree, and the cache must only save work.
func TestExploreStateCacheIsSound(t *testing.T) {
	cases := []struct {
		name   string
		sem    sim.Semantics
		params map[string]string
		faults int
		kinds  string // "" = loss,ack-loss,crash
	}{
		{"double-billing", sim.Idempotent, nil, 2, ""},
		{"double-billing", sim.AtLeastOnce, nil, 2, ""},
		{"double-billing", sim.Idempotent, map[string]string{"store": "memory"}, 2, ""},
		{"double-billing", sim.Idempotent, map[string]string{"mark": "after"}, 2, ""},
		{"at-least-once-duplicate", sim.Idempotent, nil, 2, ""},
		{"at-least-once-duplicate", sim.AtMostOnce, nil, 2, ""},
		{"at-least-once-duplicate", sim.Idempotent, map[string]string{"store": "memory"}, 2, ""},
		// pause: a paused node holds work and queues deliveries, all of
		// which the fingerprint must tell apart.
		{"double-billing", sim.Idempotent, nil, 2, "ack-loss,crash,pause"},
		{"double-billing", sim.AtLeastOnce, nil, 2, "loss,pause"},
		{"double-billing", sim.Idempotent, map[string]string{"store": "memory"}, 2, "ack-loss,pause"},
		{"at-least-once-duplicate", sim.Idempotent, nil, 2, "loss,ack-loss,pause"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%v/%s", c.name, c.sem.Alias(), c.params, c.kinds), func(t *testing.T) {
			kinds := c.kinds
			if kinds == "" {
				kinds = "loss,ack-loss,crash"
			}
			cfg := exploreConfig(t, c.name, c.sem, 2, kinds, c.params)
			cached, err := search.Explore(cfg, search.Options{MaxFaults: c.faults, Promise: sim.ExactlyOne})
			if err != nil {
				t.Fatal(err)
			}
			full, err := search.Explore(cfg, search.Options{MaxFaults: c.faults, Promise: sim.ExactlyOne, Stateless: true})
			if err != nil {
				t.Fatal(err)
			}
			if cached.Holds != full.Holds || cached.Complete != full.Complete {
				t.Fatalf("cache: holds=%v complete=%v; stateless: holds=%v complete=%v", cached.Holds, cached.Complete, full.Holds, full.Complete)
			}
			if cached.Holds && cached.Transitions > full.Transitions {
				t.Errorf("the cache made the search longer: %d > %d transitions", cached.Transitions, full.Transitions)
			}
			t.Logf("holds=%v: %d transitions with the cache, %d without", cached.Holds, cached.Transitions, full.Transitions)
		})
	}
}

// TestFingerprintMergesAreSound audits the explorer on every scenario and
// semantics of the catalog: whenever the state cache would skip a world
// because an equal fingerprint was explored before, both worlds are run to
// their end without further faults, and their futures (end, verdicts,
// effects, remaining time and events) must be the same. A role that
// depends on something the fingerprint leaves out — absolute time, a
// message id — fails here.
func TestFingerprintMergesAreSound(t *testing.T) {
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			t.Run(sc.Name+"/"+sem.Alias(), func(t *testing.T) {
				faults, _, err := scenarios.ExploreFaults("all")
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: 2, Faults: faults})
				if err != nil {
					t.Fatal(err)
				}
				res, err := search.Explore(cfg, search.Options{MaxFaults: 2, Audit: true, Promise: sim.AtLeastOne, MaxStates: 3000})
				if err != nil {
					t.Fatal(err)
				}
				if res.AuditFailure != "" {
					t.Fatalf("unsound merge after %d states: %s", res.States, res.AuditFailure)
				}
				t.Logf("%d states, %d merges audited, holds=%v", res.States, res.Revisits, res.Holds)
			})
		}
	}
}

// TestRapidAgreesWithProofs checks two Choosers against each other. For
// every expectation row the catalog proves by exhaustive search ("explore:
// K"), schedules drawn by rapid — with the explorer's fault model (no
// jitter, the scenario's explore fault kinds) — that happen to use at most
// K faults must never break exactly-once. A schedule rapid finds that the
// explorer missed would be a hole in the explorer.
func TestRapidAgreesWithProofs(t *testing.T) {
	for _, sc := range scenarios.All() {
		for i := range sc.Expect {
			e := &sc.Expect[i]
			if e.Explore == 0 {
				continue
			}
			t.Run(sc.Name+"/"+e.Label(), func(t *testing.T) {
				faults, _, err := scenarios.ExploreFaults(sc.ExploreDefaults.Faults)
				if err != nil {
					t.Fatal(err)
				}
				// The explorer's fault kinds, but rarer, so that most drawn
				// schedules stay within the proof's bound.
				for k := range faults.Probability {
					faults.Probability[k] /= 10
				}
				set := e.Settings(sc)
				faults.Duration = set.Faults.Duration // the row's pause-ms, late-ms, as the proof has them
				set.Ops, set.Faults = sc.ExploreDefaults.Ops, faults
				cfg, err := sc.Config(set)
				if err != nil {
					t.Fatal(err)
				}
				promise := proofPromise(e)
				rapid.Check(t, func(rt *rapid.T) {
					ch := simrapid.New(rt)
					ch.Topology = cfg.Topology
					w, err := sim.NewWorld(cfg, ch, nil)
					if err != nil {
						rt.Fatal(err)
					}
					w.Run()
					if len(ch.Faults()) > e.Explore {
						rt.Skip("more faults than the proof covers")
					}
					if status, why := w.JudgeAgainst(promise); status == sim.Violated {
						rt.Fatalf("the explorer proved ≤ %d faults safe, but this schedule breaks it: %s\n%s",
							e.Explore, why, simrapid.FormatFaults(cfg.Topology, ch.Faults()))
					}
				})
			})
		}
	}
}

// proofPromise is the property an "explore: K" row proves: the strongest
// cardinality claim of the row (=1, ≤1 or ≥1), invariants included.
func proofPromise(e *scenarios.Expectation) sim.Promise {
	promise := sim.Promise(0)
	for _, c := range e.Claims {
		switch c {
		case scenarios.ClaimExactlyOnce:
			promise = sim.ExactlyOne
		case scenarios.ClaimAtMostOnce:
			if promise == 0 {
				promise = sim.AtMostOne
			}
		case scenarios.ClaimAtLeastOnce:
			if promise == 0 {
				promise = sim.AtLeastOne
			}
		}
	}
	if promise == 0 {
		promise = e.Semantics.Promise()
	}
	return promise
}
