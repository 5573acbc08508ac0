package sim_test

import (
	"fmt"
	"testing"

	"github.com/oncesim/once/sim"
)

// TestExploreSameForEveryWorkerCount: a search with helpers reports
// exactly what the one-worker search reports — verdict, counterexample,
// cut, every statistic, memory included — on proofs, counterexamples and
// budget cuts, for 2, 3 and 8 workers, and with the replay-heavy
// checkpointing of TestExploreReplayIsExact.
func TestExploreSameForEveryWorkerCount(t *testing.T) {
	cases := []struct {
		name, faults string
		sem          sim.Semantics
		ops, max     int
		maxStates    int
		maxMemory    int64
	}{
		{"double-billing", "loss,ack-loss", sim.Idempotent, 3, 5, 0, 0},
		{"double-billing", "loss,ack-loss,crash", sim.Idempotent, 2, 3, 0, 0},
		{"double-billing", "loss,ack-loss,crash", sim.AtLeastOnce, 2, 3, 0, 0},
		{"double-billing", "loss,ack-loss", sim.Idempotent, 3, 5, 2000, 0},
		{"double-billing", "loss,ack-loss", sim.Idempotent, 3, 5, 0, 64 << 10},
		{"at-least-once-duplicate", "all", sim.Idempotent, 2, 2, 0, 0},
		{"two-generals", "loss", sim.AtMostOnce, 1, 4, 0, 0},
		{"flink-2pc-sink", "loss", sim.Transactional, 2, 2, 3000, 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%d/%d/%d/%d", c.name, c.sem.Alias(), c.ops, c.max, c.maxStates, c.maxMemory), func(t *testing.T) {
			cfg := exploreConfig(t, c.name, c.sem, c.ops, c.faults)
			opt := sim.ExploreOptions{MaxFaults: c.max, Promise: sim.ExactlyOne, MaxStates: c.maxStates, MaxMemory: c.maxMemory}
			for _, k := range [][2]int{{sim.ExploreCheckpointEvery, sim.ExploreWindow}, {2, 3}} {
				opt.Workers = 1
				want, err := sim.ExploreCheckpointed(cfg, opt, k[0], k[1])
				if err != nil {
					t.Fatal(err)
				}
				for _, workers := range []int{2, 3, 8} {
					opt.Workers = workers
					got, err := sim.ExploreCheckpointed(cfg, opt, k[0], k[1])
					if err != nil {
						t.Fatal(err)
					}
					if got.ExploreStats != want.ExploreStats || !sameSearch(got, want) {
						t.Errorf("every=%d window=%d, %d workers: %+v holds=%v complete=%v cut=%q why=%q choices=%v\none worker: %+v holds=%v complete=%v cut=%q why=%q choices=%v",
							k[0], k[1], workers, got.ExploreStats, got.Holds, got.Complete, got.Cut, got.Why, got.Choices,
							want.ExploreStats, want.Holds, want.Complete, want.Cut, want.Why, want.Choices)
					}
				}
			}
		})
	}
}
