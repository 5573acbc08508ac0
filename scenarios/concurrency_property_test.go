package scenarios_test

// Properties of the key store's unique constraint under interleavings:
// rapid draws the workload (operations, clicks, the client's patience), the
// fault profile (lost requests and responses) and every interleaving
// decision of the run (which store reply is held back, and for how long),
// then checks the promise. The same draw with the constraint off must be
// able to duplicate, or the first property proves nothing.

import (
	"testing"
	"time"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
	"pgregory.net/rapid"
)

// drawConcurrent draws the settings of a concurrent-same-key run with the
// given lock parameter; preemption is always possible (p > 0).
func drawConcurrent(t *rapid.T, lock string) scenarios.Settings {
	var f scenarios.Faults
	f.Probability[sim.FaultLoss] = rapid.SampledFrom(probabilities).Draw(t, "loss")
	f.Probability[sim.FaultAckLoss] = rapid.SampledFrom(probabilities).Draw(t, "ack-loss")
	f.Probability[sim.FaultPreempt] = rapid.SampledFrom([]float64{.1, .3, .5, .9}).Draw(t, "preempt")
	f.Duration[sim.FaultPreempt] = sim.Time(rapid.SampledFrom([]int{1, 10, 50, 200, 1000}).Draw(t, "preempt-ms"))
	timeout := rapid.SampledFrom([]time.Duration{50 * time.Millisecond, 200 * time.Millisecond, time.Second}).Draw(t, "timeout")
	return scenarios.Settings{
		Semantics: sim.Idempotent,
		Ops:       rapid.IntRange(1, 4).Draw(t, "ops"),
		Faults:    f,
		Params: map[string]string{
			"lock":    lock,
			"clicks":  rapid.SampledFrom([]string{"1", "2", "3", "5"}).Draw(t, "clicks"),
			"timeout": timeout.String(),
		},
	}
}

// A unique insert gives exactly one charge per payment under any
// interleaving of the requests' store steps, any lost message, any number
// of concurrent clicks.
func TestPropertyUniqueInsertExactlyOnceUnderInterleavings(t *testing.T) {
	var count finishedCount
	preempted := 0
	rapid.Check(t, func(t *rapid.T) {
		r := runDrawn(t, "concurrent-same-key", drawConcurrent(t, "unique-insert"))
		count.add(r.out)
		preempted += r.out.Faults.Of(sim.ChoicePreempt)
		checkExactlyOnce(t, r)
	})
	count.check(t)
	if preempted == 0 {
		t.Fatal("no run was preempted: the property never met an interleaving")
	}
}

// Check, then insert without a constraint duplicates: rapid must find an
// interleaving that charges a payment twice, and shrink it.
func TestPropertyCheckThenInsertDuplicatesUnderInterleavings(t *testing.T) {
	var last *drawnRun
	found, report := expectCounterexample(t, func(rt *rapid.T) {
		last = nil
		r := runDrawn(rt, "concurrent-same-key", drawConcurrent(rt, "none"))
		for _, op := range r.out.Ops {
			if op.Effects > 1 {
				last = r
			}
		}
		checkExactlyOnce(rt, r)
	})
	if !found || last == nil {
		t.Fatalf("rapid found no interleaving where check-then-insert charges twice:\n%s", report)
	}
	if last.out.Faults.Of(sim.ChoicePreempt) == 0 {
		t.Fatalf("the duplicate needs no interleaving, so it does not show the race:\n%s", last)
	}
	t.Logf("%s\nshrunk counterexample: %s", firstLine(report), last)
}

// The state cache stays sound when the explorer also branches on
// interleavings: the same verdicts with and without it, and no merge of two
// states whose futures differ.
func TestExploreInterleavingsCacheIsSound(t *testing.T) {
	for _, lock := range []string{"none", "unique-insert"} {
		t.Run(lock, func(t *testing.T) {
			cfg := exploreConfig(t, "concurrent-same-key", sim.Idempotent, 1, "loss,ack-loss", map[string]string{"lock": lock})
			opt := search.Options{MaxFaults: 1, MaxPreemptions: 2, Promise: sim.ExactlyOne}
			cached, err := search.Explore(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.Stateless = true
			full, err := search.Explore(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if cached.Holds != full.Holds || cached.Complete != full.Complete {
				t.Fatalf("cache: holds=%v complete=%v; stateless: holds=%v complete=%v", cached.Holds, cached.Complete, full.Holds, full.Complete)
			}
			if want := lock == "unique-insert"; cached.Holds != want {
				t.Fatalf("lock=%s: holds=%v, want %v (%s)", lock, cached.Holds, want, cached.Why)
			}
			opt.Stateless, opt.Audit = false, true
			audited, err := search.Explore(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if audited.AuditFailure != "" {
				t.Fatalf("unsound merge: %s", audited.AuditFailure)
			}
		})
	}
}

// Without a preemption budget the explorer keeps every handler's store
// steps back to back, so check-then-insert holds: the duplicate is an
// interleaving, not a fault.
func TestCheckThenInsertNeedsAnInterleaving(t *testing.T) {
	cfg := exploreConfig(t, "concurrent-same-key", sim.Idempotent, 1, "loss,ack-loss", map[string]string{"lock": "none"})
	res, err := search.Explore(cfg, search.Options{MaxFaults: 2, Promise: sim.ExactlyOne})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Holds {
		t.Fatalf("with no preemption the race appeared anyway: %s", res.Why)
	}
	res, err = search.Explore(cfg, search.Options{MaxPreemptions: 1, Promise: sim.ExactlyOne})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds {
		t.Fatal("one preemption and no fault should charge twice")
	}
}
