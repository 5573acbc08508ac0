package enginetest_test

import (
	"reflect"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestRunsMatchFreshWorlds runs seeds of every catalog scenario under
// every semantics it supports on one reused world and compares each
// outcome with a fresh world's: reuse must leave nothing of one seed in
// the next (tables, queue, tallies, chooser counts, invariants).
func TestRunsMatchFreshWorlds(t *testing.T) {
	seeds := uint64(10) // enough: a leak shows in the seed after the first that dirties the field
	if testing.Short() {
		seeds = 5
	}
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults})
			if err != nil {
				t.Fatalf("%s/%s: %v", sc.Name, sem.Alias(), err)
			}
			runs, err := sim.NewRuns(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, digest := range []bool{true, false} {
				runs.SetDigest(digest)
				for seed := uint64(1); seed <= seeds; seed++ {
					w, err := sim.NewWorld(cfg, sim.NewRandom(seed), nil)
					if err != nil {
						t.Fatal(err)
					}
					want := w.Run()
					got := runs.Run(seed)
					if !digest {
						if got.Digest != sim.NewDigest() {
							t.Fatalf("%s/%s seed %d: digest %x computed though not asked for", sc.Name, sem.Alias(), seed, got.Digest)
						}
						want.Digest = got.Digest
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s/%s seed %d (digest %v): reused world gave\n%+v\nfresh world gave\n%+v", sc.Name, sem.Alias(), seed, digest, got, want)
					}
				}
			}
		}
	}
}

// TestRunsAllocateNothingPerRun checks that a reused double-billing run
// allocates nothing once its world has grown to the run's working set
// (invariants and verdict reasons aside: the idempotent runs hold).
func TestRunsAllocateNothingPerRun(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.Idempotent, Ops: 10, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := sim.NewRuns(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 200; seed++ {
		runs.Run(seed)
	}
	seed := uint64(1)
	allocs := testing.AllocsPerRun(100, func() {
		runs.Run(seed)
		seed++
	})
	inv := 0
	if cfg.Invariants != nil {
		inv = len(cfg.Invariants())
	}
	if allocs > float64(inv)+1 {
		t.Fatalf("%.1f allocations per reused run, want at most %d (the config's invariants) + 1", allocs, inv)
	}
}
