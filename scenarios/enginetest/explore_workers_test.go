package enginetest_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// workerCases are searches of every kind: proofs, counterexamples, budget
// cuts by states and by memory.
var workerCases = []struct {
	name, faults string
	sem          sim.Semantics
	ops, max     int
	preemptions  int
	maxStates    int
	maxMemory    int64
}{
	{"double-billing", "loss,ack-loss", sim.Idempotent, 3, 5, 0, 0, 0},
	{"double-billing", "loss,ack-loss,crash", sim.Idempotent, 2, 3, 0, 0, 0},
	{"double-billing", "loss,ack-loss,crash", sim.AtLeastOnce, 2, 3, 0, 0, 0},
	{"double-billing", "loss,ack-loss", sim.Idempotent, 3, 5, 0, 2000, 0},
	{"double-billing", "loss,ack-loss", sim.Idempotent, 3, 5, 0, 0, 64 << 10},
	{"at-least-once-duplicate", "all", sim.Idempotent, 2, 2, 0, 0, 0},
	{"two-generals", "loss", sim.AtMostOnce, 1, 4, 0, 0, 0},
	{"flink-2pc-sink", "loss", sim.Transactional, 2, 2, 0, 1000, 0},
	{"concurrent-same-key", "loss,ack-loss", sim.Idempotent, 1, 1, 2, 0, 0},
}

// TestExploreSameForEveryWorkerCount: a search on 2, 3 or 8 workers
// reports exactly what the one-worker search reports — verdict,
// counterexample, cut, every statistic, memory included — on proofs,
// counterexamples and budget cuts, undivided (the search ends before the
// split) and split into its parts (the split forced after 40 states), and
// with the replay-heavy checkpointing of TestExploreReplayIsExact.
func TestExploreSameForEveryWorkerCount(t *testing.T) {
	for _, c := range workerCases {
		t.Run(fmt.Sprintf("%s/%s/%d/%d/%d/%d", c.name, c.sem.Alias(), c.ops, c.max, c.maxStates, c.maxMemory), func(t *testing.T) {
			cfg := exploreConfig(t, c.name, c.sem, c.ops, c.faults)
			opt := search.Options{MaxFaults: c.max, MaxPreemptions: c.preemptions, Promise: sim.ExactlyOne, MaxStates: c.maxStates, MaxMemory: c.maxMemory}
			for _, k := range []search.Tuning{{SplitAt: -1}, {SplitAt: 40}, {CheckpointEvery: 2, Window: 3, SplitAt: 40}} {
				opt.Tuning = k
				opt.Workers = 1
				want, err := search.Explore(cfg, opt)
				if err != nil {
					t.Fatal(err)
				}
				for _, workers := range []int{2, 3, 8} {
					opt.Workers = workers
					got, err := search.Explore(cfg, opt)
					if err != nil {
						t.Fatal(err)
					}
					if got.Stats != want.Stats || !sameSearch(got, want) {
						t.Errorf("%+v, %d workers: %+v holds=%v complete=%v cut=%q why=%q choices=%v\none worker: %+v holds=%v complete=%v cut=%q why=%q choices=%v",
							k, workers, got.Stats, got.Holds, got.Complete, got.Cut, got.Why, got.Choices,
							want.Stats, want.Holds, want.Complete, want.Cut, want.Why, want.Choices)
					}
				}
			}
		})
	}
}

// TestExploreSplitFindsTheUndividedCounterexample: a search split into its
// parts reaches the verdict of the undivided search and reports exactly
// its counterexample (the first in canonical order); its states are at
// least the undivided search's (a state below two parts is counted by
// both), and more when the split took place.
func TestExploreSplitFindsTheUndividedCounterexample(t *testing.T) {
	for _, c := range workerCases {
		if c.maxStates != 0 || c.maxMemory != 0 {
			continue // a budget cuts a split search elsewhere
		}
		t.Run(fmt.Sprintf("%s/%s/%d/%d", c.name, c.sem.Alias(), c.ops, c.max), func(t *testing.T) {
			cfg := exploreConfig(t, c.name, c.sem, c.ops, c.faults)
			opt := search.Options{MaxFaults: c.max, MaxPreemptions: c.preemptions, Promise: sim.ExactlyOne, Workers: 2}
			opt.Tuning.SplitAt = -1 // never
			want, err := search.Explore(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.Tuning.SplitAt = 40
			got, err := search.Explore(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if got.Holds != want.Holds || got.Complete != want.Complete || got.Why != want.Why || !slices.Equal(got.Choices, want.Choices) {
				t.Errorf("split: holds=%v complete=%v why=%q choices=%v\nundivided: holds=%v complete=%v why=%q choices=%v",
					got.Holds, got.Complete, got.Why, got.Choices, want.Holds, want.Complete, want.Why, want.Choices)
			}
			if got.States < want.States {
				t.Errorf("split: %d states, fewer than the undivided %d", got.States, want.States)
			}
			t.Logf("undivided %d states, split %d", want.States, got.States)
		})
	}
}

// TestExploreSplitSpendsTheStateBudgetInPartOrder: a split search cut by
// --max-states counts exactly the budget, names the whole budget (not a
// part's share), and is the same for every number of workers.
func TestExploreSplitSpendsTheStateBudgetInPartOrder(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.Idempotent, 3, "loss,ack-loss")
	for _, budget := range []int{500, 2000, 4000} { // below the 5 332 states of the complete search
		var first *search.Result
		for _, workers := range []int{1, 2, 5} {
			// Unreduced: the budgets are set below the size of that tree
			// (symmetry stores 3 879 of its states, under 4 000).
			opt := search.Options{MaxFaults: 5, Promise: sim.ExactlyOne, MaxStates: budget, Workers: workers, Tuning: search.Tuning{SplitAt: 40}, Reduce: search.ReduceNone}
			res, err := search.Explore(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Complete || res.States != budget || res.Cut != fmt.Sprintf("state budget of %d exhausted", budget) {
				t.Errorf("budget %d, %d workers: complete=%v states=%d cut=%q", budget, workers, res.Complete, res.States, res.Cut)
			}
			if first == nil {
				first = res
			} else if res.Stats != first.Stats {
				t.Errorf("budget %d, %d workers: %+v, one worker %+v", budget, workers, res.Stats, first.Stats)
			}
		}
	}
}
