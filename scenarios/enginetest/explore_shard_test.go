package enginetest_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// shardsMerged runs every shard of a search of n parts and merges them as
// `once merge` does: violated iff a shard found a violation, the
// counterexample the first in canonical order, the counts summed.
func shardsMerged(t *testing.T, cfg *sim.Config, opt search.Options, n int) (*search.Result, []int) {
	t.Helper()
	merged := &search.Result{Holds: true, Complete: true}
	var states []int
	for i := range n {
		opt.Shard = &search.Shard{Index: i, Count: n}
		res, err := search.Explore(cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, res.States)
		merged.States += res.States
		merged.Complete = merged.Complete && res.Complete
		if !res.Holds && (merged.Holds || search.CompareChoices(res.Choices, merged.Choices) < 0) {
			merged.Holds, merged.Choices, merged.Why = false, res.Choices, res.Why
		}
	}
	return merged, states
}

// TestShardedExploreFindsTheUnshardedCounterexample: split into 1, 2, 3
// and 7 shards, a search reaches the unsharded verdict, and the first of
// the shards' counterexamples in canonical order is exactly the unsharded
// one (same choices, same violation); one shard is the unsharded search,
// statistics included.
func TestShardedExploreFindsTheUnshardedCounterexample(t *testing.T) {
	cases := []struct {
		name, faults string
		sem          sim.Semantics
		ops, max     int
		preemptions  int
	}{
		{"double-billing", "loss,ack-loss", sim.Idempotent, 2, 4, 0},        // holds
		{"double-billing", "loss,ack-loss,crash", sim.AtLeastOnce, 2, 3, 0}, // violated
		{"double-billing", "loss,ack-loss,crash", sim.AtMostOnce, 2, 3, 0},  // violated
		{"at-least-once-duplicate", "all", sim.Idempotent, 2, 2, 0},
		{"two-generals", "loss", sim.AtMostOnce, 1, 4, 0},
		{"concurrent-same-key", "loss,ack-loss", sim.Idempotent, 1, 1, 2}, // a race: preemptions
		{"redis-lock-expiry", "pause", sim.Idempotent, 1, 1, 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%d/%d", c.name, c.sem.Alias(), c.ops, c.max), func(t *testing.T) {
			cfg := exploreConfig(t, c.name, c.sem, c.ops, c.faults)
			opt := search.Options{MaxFaults: c.max, MaxPreemptions: c.preemptions, Promise: sim.ExactlyOne, Workers: 1}
			want, err := search.Explore(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !want.Complete {
				t.Fatalf("the unsharded search is cut (%s): pick smaller bounds", want.Cut)
			}
			for _, n := range []int{1, 2, 3, 7} {
				got, states := shardsMerged(t, cfg, opt, n)
				if got.Holds != want.Holds || !got.Complete || got.Why != want.Why || !slices.Equal(got.Choices, want.Choices) {
					t.Errorf("%d shards: holds=%v complete=%v why=%q choices=%v\nunsharded: holds=%v why=%q choices=%v",
						n, got.Holds, got.Complete, got.Why, got.Choices, want.Holds, want.Why, want.Choices)
				}
				if n == 1 && got.States != want.States {
					t.Errorf("one shard: %d states, unsharded %d", got.States, want.States)
				}
				t.Logf("%d shards: holds=%v, states per shard %v (unsharded %d)", n, got.Holds, states, want.States)
			}
		})
	}
}

// TestShardSameForEveryWorkerCount: within one shard, the helpers change
// nothing the shard reports.
func TestShardSameForEveryWorkerCount(t *testing.T) {
	for _, sem := range []sim.Semantics{sim.Idempotent, sim.AtLeastOnce} {
		cfg := exploreConfig(t, "double-billing", sem, 2, "loss,ack-loss,crash")
		for i := range 3 {
			opt := search.Options{MaxFaults: 3, Promise: sim.ExactlyOne, Shard: &search.Shard{Index: i, Count: 3}, Workers: 1}
			want, err := search.Explore(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{2, 3} {
				opt.Workers = workers
				got, err := search.Explore(cfg, opt)
				if err != nil {
					t.Fatal(err)
				}
				if got.Stats != want.Stats || !sameSearch(got, want) {
					t.Errorf("%s shard %d/3, %d workers: %+v holds=%v choices=%v\none worker: %+v holds=%v choices=%v",
						sem.Alias(), i, workers, got.Stats, got.Holds, got.Choices, want.Stats, want.Holds, want.Choices)
				}
			}
		}
	}
}

// TestExploreShardRejectsABadIndex: a shard outside its count is an error.
func TestExploreShardRejectsABadIndex(t *testing.T) {
	cfg := exploreConfig(t, "two-generals", sim.AtMostOnce, 1, "loss")
	for _, s := range []search.Shard{{Index: 2, Count: 2}, {Index: -1, Count: 2}, {Index: 0, Count: 0}} {
		if _, err := search.Explore(cfg, search.Options{MaxFaults: 1, Shard: &s}); err == nil {
			t.Errorf("shard %d/%d: no error", s.Index, s.Count)
		}
	}
}
