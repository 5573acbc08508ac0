package batch_test

import (
	"testing"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestTallyCountsUnsettled: a batch in a liveness phase counts the runs
// that do not settle, and names the first, exactly as the runs one by one
// judge themselves (sim.LivenessOf) — for any number of workers; a batch
// without a liveness phase counts none.
func TestTallyCountsUnsettled(t *testing.T) {
	sc, err := scenarios.Lookup("stuck-processing-lease")
	if err != nil {
		t.Fatal(err)
	}
	set := sc.Expect[0].Settings(sc) // no lease: a key can stay PROCESSING forever
	plain, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	set.FaultsUntil, set.Settle = 2000, 30_000
	phased, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	const seeds = 40
	wantN, wantFirst := 0, uint64(0)
	for seed := uint64(1); seed <= seeds; seed++ {
		w, err := sim.NewWorld(phased, sim.NewRandom(seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		if l, ok := sim.LivenessOf(phased, w.Run()); !ok {
			t.Fatal("a config with FaultsUntil has no liveness verdict")
		} else if !l.Settled {
			wantN++
			if wantFirst == 0 {
				wantFirst = seed
			}
		}
	}
	if wantN == 0 || wantN == seeds {
		t.Fatalf("%d of %d runs unsettled: the scenario no longer tells settled from unsettled runs", wantN, seeds)
	}
	for _, workers := range []int{1, 3} {
		got := batch.Run([]*sim.Config{phased, plain}, seeds, workers, nil)
		if got[0].Unsettled != wantN || got[0].FirstUnsettled != wantFirst {
			t.Errorf("%d workers: %d unsettled, first seed %d; one by one %d, first %d", workers, got[0].Unsettled, got[0].FirstUnsettled, wantN, wantFirst)
		}
		if got[1].Unsettled != 0 || got[1].FirstUnsettled != 0 {
			t.Errorf("%d workers: without a liveness phase %d unsettled (first %d)", workers, got[1].Unsettled, got[1].FirstUnsettled)
		}
	}
	a, b := batch.Tally{Unsettled: 2, FirstUnsettled: 9}, batch.Tally{Unsettled: 3, FirstUnsettled: 4}
	if a.Merge(&b); a.Unsettled != 5 || a.FirstUnsettled != 4 {
		t.Errorf("merged: %d unsettled, first %d; want 5, first 4", a.Unsettled, a.FirstUnsettled)
	}
}
