package batch_test

import (
	"reflect"
	"testing"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// rowConfigs builds the config of every expectation row of the catalog.
func rowConfigs(t *testing.T) ([]*sim.Config, []string) {
	t.Helper()
	var cfgs []*sim.Config
	var names []string
	for _, sc := range scenarios.All() {
		for i := range sc.Expect {
			e := &sc.Expect[i]
			cfg, err := sc.Config(e.Settings(sc))
			if err != nil {
				t.Fatal(err)
			}
			cfgs = append(cfgs, cfg)
			names = append(names, sc.Name+" "+e.Label())
		}
	}
	return cfgs, names
}

// TestRunSameForAnyWorkerCount: the tallies, metric sums included, are
// identical — not merely close — for 1, 2 and 7 workers, because the fold
// order is fixed by the chunks. 37 seeds: the last chunk is short.
func TestRunSameForAnyWorkerCount(t *testing.T) {
	cfgs, names := rowConfigs(t)
	const seeds = 37
	want := batch.Run(cfgs, seeds, 1, nil)
	for _, workers := range []int{2, 7} {
		got := batch.Run(cfgs, seeds, workers, nil)
		for i := range want {
			if !sameBatch(&got[i], &want[i]) {
				t.Errorf("%s: %d workers %+v, 1 worker %+v", names[i], workers, got[i], want[i])
			}
		}
	}
}

// TestRunMatchesSequential checks the parallel fold against the plain
// loop of scenarios.Tally (as the expectation tests run it) on every
// expectation row of the catalog: equal to the last bit, metric sums
// included, although the parallel fold adds them in another order.
func TestRunMatchesSequential(t *testing.T) {
	cfgs, names := rowConfigs(t)
	const seeds = 33
	got := batch.Run(cfgs, seeds, 3, nil)
	for i, cfg := range cfgs {
		var want scenarios.Tally
		for seed := uint64(1); seed <= seeds; seed++ {
			w, err := sim.NewWorld(cfg, sim.NewRandom(seed), nil)
			if err != nil {
				t.Fatal(err)
			}
			want.Add(w.Run())
		}
		if !sameTally(&got[i].Tally, &want) {
			t.Errorf("%s: parallel tally %+v, sequential %+v", names[i], got[i].Tally, want)
		}
	}
}

// sameTally compares two tallies, metric sums by their canonical text.
func sameTally(a, b *scenarios.Tally) bool {
	if len(a.Metrics) != len(b.Metrics) {
		return false
	}
	for k := range a.Metrics {
		at, _ := a.Metrics[k].MarshalText()
		bt, _ := b.Metrics[k].MarshalText()
		if string(at) != string(bt) {
			return false
		}
	}
	x, y := *a, *b
	x.Metrics, y.Metrics = nil, nil
	return reflect.DeepEqual(x, y)
}

// sameBatch compares two batch tallies: the tally and every first seed.
func sameBatch(g, w *batch.Tally) bool {
	return sameTally(&g.Tally, &w.Tally) && g.FirstLost == w.FirstLost && g.FirstDup == w.FirstDup &&
		g.FirstViolation == w.FirstViolation && g.FirstUnfinished == w.FirstUnfinished
}

// TestShardsPartitionSeeds: the shards of a batch run every seed exactly
// once, in consecutive ranges of nearly equal size.
func TestShardsPartitionSeeds(t *testing.T) {
	for _, seeds := range []int{1, 2, 7, 37, 200, 1001} {
		for _, n := range []int{1, 2, 3, 7, 16} {
			next := uint64(1)
			for i := range n {
				r := batch.Shard{Index: i, Count: n}.Seeds(seeds)
				if r.Count() > 0 && r.Lo != next {
					t.Fatalf("seeds %d, shard %d/%d starts at %d, want %d", seeds, i, n, r.Lo, next)
				}
				if c := r.Count(); c < seeds/n || c > seeds/n+1 {
					t.Fatalf("seeds %d, shard %d/%d has %d seeds", seeds, i, n, c)
				}
				next += uint64(r.Count())
			}
			if next != uint64(seeds)+1 {
				t.Fatalf("seeds %d in %d shards: covered up to %d", seeds, n, next-1)
			}
		}
	}
}

// TestShardsMergeToWhole: the tallies of the shards, merged in any order,
// are the tallies of the whole batch — to the bit.
func TestShardsMergeToWhole(t *testing.T) {
	cfgs, names := rowConfigs(t)
	const seeds = 41
	want := batch.Run(cfgs, seeds, 2, nil)
	for _, n := range []int{2, 3, 7} {
		got := make([]batch.Tally, len(cfgs))
		for i := n - 1; i >= 0; i-- { // backwards: the order must not matter
			part := batch.RunSeeds(cfgs, batch.Shard{Index: i, Count: n}.Seeds(seeds), 1, nil)
			for k := range got {
				got[k].Merge(&part[k])
			}
		}
		for k := range want {
			if !sameBatch(&got[k], &want[k]) {
				t.Errorf("%s: %d shards merged %+v, whole %+v", names[k], n, got[k], want[k])
			}
		}
	}
}

// TestRunProgress: progress ends with every run done.
func TestRunProgress(t *testing.T) {
	cfgs, _ := rowConfigs(t)
	var last [2]int
	batch.Run(cfgs[:1], 5, 2, func(done, total int) { last = [2]int{done, total} })
	if last != [2]int{5, 5} {
		t.Errorf("last progress %v, want [5 5]", last)
	}
}

// TestTallyWitness: a broken "all runs" claim names the first seed that
// broke it; a "some run" claim names none.
func TestTallyWitness(t *testing.T) {
	a := batch.Tally{FirstLost: 9, FirstDup: 4, FirstUnfinished: 2}
	b := batch.Tally{FirstLost: 3, FirstViolation: 12}
	a.Merge(&b)
	for _, c := range []struct {
		claim scenarios.Claim
		want  uint64
	}{
		{scenarios.ClaimExactlyOnce, 3}, {scenarios.ClaimAtMostOnce, 4}, {scenarios.ClaimAtLeastOnce, 3},
		{scenarios.ClaimInvariants, 12}, {scenarios.ClaimDuplicates, 0}, {scenarios.ClaimLosses, 0},
	} {
		if got := a.Witness(c.claim); got != c.want {
			t.Errorf("Witness(%s) = %d, want %d", c.claim, got, c.want)
		}
	}
}
