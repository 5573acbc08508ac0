package batch_test

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/batch"
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
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%s: %d workers %+v, 1 worker %+v", names[i], workers, got[i], want[i])
			}
		}
	}
}

// TestRunMatchesSequential checks the parallel fold against the plain
// loop of scenarios.Tally (as the expectation tests run it) on every
// expectation row of the catalog.
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
		// Counts are exact; metric sums are floats added in another order
		// (chunk by chunk), so they agree to rounding only.
		g := got[i].Tally
		gm, wm := g.Metrics, want.Metrics
		g.Metrics, want.Metrics = nil, nil
		if fmt.Sprint(g) != fmt.Sprint(want) || len(gm) != len(wm) {
			t.Errorf("%s: parallel tally %+v, sequential %+v", names[i], got[i].Tally, want)
		}
		for k := range min(len(gm), len(wm)) {
			if math.Abs(gm[k]-wm[k]) > 1e-9*max(1, math.Abs(wm[k])) {
				t.Errorf("%s: metric %d: parallel %v, sequential %v", names[i], k, gm[k], wm[k])
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
