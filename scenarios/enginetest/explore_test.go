package enginetest_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// TestExploreMemoryBudgetCutsTheSearch: a search that outgrows its memory
// budget stops as incomplete, names the budget, and keeps its statistics.
func TestExploreMemoryBudgetCutsTheSearch(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.Idempotent, 5, "loss,ack-loss")
	const budget = 64 << 10
	res, err := search.Explore(cfg, search.Options{MaxFaults: 6, Promise: sim.ExactlyOne, MaxMemory: budget})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || !res.Holds || res.Cut != "memory budget of 64KiB exhausted" {
		t.Fatalf("want INCOMPLETE by the memory budget, got complete=%v holds=%v cut=%q", res.Complete, res.Holds, res.Cut)
	}
	if res.States == 0 || res.Transitions == 0 || res.Memory == 0 {
		t.Fatalf("the cut search lost its statistics: %+v", res.Stats)
	}
	if res.Memory > budget*5/4 {
		t.Fatalf("the search held %d bytes, past 1.25 × its budget of %d", res.Memory, budget)
	}
	full, err := search.Explore(cfg, search.Options{MaxFaults: 6, Promise: sim.ExactlyOne})
	if err != nil {
		t.Fatal(err)
	}
	if !full.Complete || full.States <= res.States {
		t.Fatalf("without the budget the search should finish and see more states: %+v cut %q", full.Stats, full.Cut)
	}
	again, err := search.Explore(cfg, search.Options{MaxFaults: 6, Promise: sim.ExactlyOne, MaxMemory: budget})
	if err != nil {
		t.Fatal(err)
	}
	if again.Stats != res.Stats {
		t.Fatalf("the memory cut is not deterministic: %+v then %+v", res.Stats, again.Stats)
	}
}

// TestExploreReplayIsExact: keeping fewer worlds on the stack (rebuilding
// the others by replay) changes nothing a search reports — verdicts,
// counts, counterexample — only how many steps were replayed.
func TestExploreReplayIsExact(t *testing.T) {
	cases := []struct {
		name, faults string
		sem          sim.Semantics
		ops, max     int
		maxStates    int
	}{
		{"double-billing", "loss,ack-loss,crash", sim.Idempotent, 2, 3, 0},
		{"double-billing", "loss", sim.AtLeastOnce, 2, 3, 0},
		{"at-least-once-duplicate", "all", sim.Idempotent, 2, 2, 0},
		{"two-generals", "loss", sim.AtMostOnce, 1, 2, 0},
		{"flink-2pc-sink", "loss", sim.Transactional, 2, 2, 1000},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s", c.name, c.sem.Alias()), func(t *testing.T) {
			cfg := exploreConfig(t, c.name, c.sem, c.ops, c.faults)
			opt := search.Options{MaxFaults: c.max, Promise: sim.ExactlyOne, MaxStates: c.maxStates}
			opt.Tuning = search.Tuning{CheckpointEvery: 1, Window: 1 << 30} // every world kept
			want, err := search.Explore(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if want.Replayed != 0 {
				t.Fatalf("keeping every world replayed %d steps", want.Replayed)
			}
			for _, k := range [][2]int{{2, 2}, {3, 5}, {search.DefaultCheckpointEvery, search.DefaultWindow}} {
				opt.Tuning = search.Tuning{CheckpointEvery: k[0], Window: k[1]}
				got, err := search.Explore(cfg, opt)
				if err != nil {
					t.Fatal(err)
				}
				if k[0] == 2 && want.MaxDepth > 4 && got.Replayed == 0 {
					t.Errorf("every=2 window=2 at depth %d replayed nothing: the test exercises no restore", want.MaxDepth)
				}
				if !sameSearch(want, got) {
					t.Errorf("every=%d window=%d: %+v holds=%v complete=%v cut=%q choices=%v\nwant %+v holds=%v complete=%v cut=%q choices=%v",
						k[0], k[1], got.Stats, got.Holds, got.Complete, got.Cut, got.Choices,
						want.Stats, want.Holds, want.Complete, want.Cut, want.Choices)
				}
			}
		})
	}
}

// sameSearch compares what a search reports, leaving out the cost of
// keeping worlds (buffers, bytes, replayed steps).
func sameSearch(a, b *search.Result) bool {
	sa, sb := a.Stats, b.Stats
	sa.Replayed, sa.Worlds, sa.Memory = 0, 0, 0
	sb.Replayed, sb.Worlds, sb.Memory = 0, 0, 0
	return sa == sb && a.Holds == b.Holds && a.Complete == b.Complete && a.Cut == b.Cut && a.Why == b.Why && slices.Equal(a.Choices, b.Choices)
}

// exploreConfig builds the configuration of a catalog scenario with the
// fault kinds an exhaustive search enumerates.
func exploreConfig(t *testing.T, name string, sem sim.Semantics, ops int, kinds string) *sim.Config {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	faults, _, err := scenarios.ExploreFaults(kinds)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: ops, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestExploreStop: a closed Stop channel ends the search as incomplete,
// cut "interrupted", with what it counted so far.
func TestExploreStop(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	res, err := search.Explore(exploreConfig(t, "double-billing", sim.Idempotent, 2, "loss"), search.Options{MaxFaults: 2, Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || !res.Holds || res.Cut != "interrupted" || res.States != 1 {
		t.Fatalf("want an interrupted search at its root, got complete=%v holds=%v cut=%q states=%d", res.Complete, res.Holds, res.Cut, res.States)
	}
}

// TestExploreFaultBound: a fault budget beyond MaxExploreFaults is a
// programmer error (flags and files check the same bound first).
func TestExploreFaultBound(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.Idempotent, 1, "loss")
	for _, n := range []int{-1, search.MaxFaults + 1} {
		if _, err := search.Explore(cfg, search.Options{MaxFaults: n}); err == nil {
			t.Errorf("MaxFaults %d accepted", n)
		}
	}
}
