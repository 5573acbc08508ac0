package scenarios_test

import (
	"slices"
	"testing"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// permutations calls f with every permutation of 1..n, as a renaming
// (to[0] unused).
func permutations(n int, f func(to []sim.OpID)) {
	to := make([]sim.OpID, n+1)
	used := make([]bool, n+1)
	var rec func(i int)
	rec = func(i int) {
		if i > n {
			f(to)
			return
		}
		for v := 1; v <= n; v++ {
			if !used[v] {
				used[v], to[i] = true, sim.OpID(v)
				rec(i + 1)
				used[v] = false
			}
		}
	}
	rec(1)
}

// TestSymmetryHeadroom checks that the symmetry reduction leaves nothing
// of its own on the table: for double-billing (idem, loss and ack-loss, n
// operations, n faults) the states the unreduced search stores fall, under
// every renaming of the operations together with every permutation of
// the transaction ids and every shift of an operation's attempt numbers
// (brute force: the least fingerprint over the n! renamings of each, its
// ids put in a canonical order by canonicalIDs and its attempts shifted
// by canonicalAttempts),
// into exactly as many orbits as the reduced search stores distinct
// canonical states. A state component that
// still carried an operation's identity or order past the canonical form
// would leave two renamings of one state apart there: more canonical
// states than orbits. (The reduced search's States may exceed its
// distinct states by the states it explored again, reached later with
// fewer faults.) At 5 / 5 (a few seconds more) the counts were 10 311 states unreduced, 5 255
// orbits, 5 255 canonical states, 5 293 stored: docs/explore.md.
func TestSymmetryHeadroom(t *testing.T) {
	for _, n := range []int{3, 4} {
		cfg := exploreConfig(t, "double-billing", sim.Idempotent, n, "loss,ack-loss", nil)
		sym, off := sim.NewSymmetry(cfg, sim.AllFaultKinds)
		if sym == nil {
			t.Fatalf("symmetry off: %v", off)
		}
		distinct := map[sim.Fingerprint]bool{}
		orbits := map[sim.Fingerprint]bool{}
		plain, err := search.Explore(cfg, search.Options{MaxFaults: n, Promise: sim.ExactlyOne, Reduce: search.ReduceNone,
			OnState: func(w *sim.World, _ int) {
				distinct[w.Fingerprint()] = true
				least := sim.Fingerprint(^uint64(0))
				permutations(n, func(to []sim.OpID) {
					least = min(least, canonicalIDs(sym, canonicalAttempts(sym, sym.Renamed(w, to))).Fingerprint())
				})
				orbits[least] = true
			}})
		if err != nil {
			t.Fatal(err)
		}
		reducedDistinct := map[sim.Fingerprint]bool{}
		var buf []byte
		reduced, err := search.Explore(cfg, search.Options{MaxFaults: n, Promise: sim.ExactlyOne,
			OnState: func(w *sim.World, _ int) {
				fp, _ := sym.Fingerprint(w, &buf)
				reducedDistinct[fp] = true
			}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d/%d: unreduced %d states stored (%d distinct, %d orbits); reduced %d stored (%d distinct)",
			n, n, plain.States, len(distinct), len(orbits), reduced.States, len(reducedDistinct))
		if !plain.Holds || !reduced.Holds || !plain.Complete || !reduced.Complete {
			t.Fatalf("%d/%d: want two complete proofs, got holds=%v/%v complete=%v/%v", n, n, plain.Holds, reduced.Holds, plain.Complete, reduced.Complete)
		}
		if len(reducedDistinct) != len(orbits) {
			t.Errorf("%d/%d: the reduced search stores %d canonical states for %d orbits", n, n, len(reducedDistinct), len(orbits))
		}
	}
}

// TestCollapsedCountsRenamingsOnly: Stats.Collapsed counts the revisits
// that were a renaming of the stored state, not the state itself. Where
// the reduction merges nothing (at-least-once-duplicate: its records
// start 100 ms apart and take their offsets in that order, so no two
// states are renamings of each other) it is 0 and the states are the
// unreduced search's; where it merges (double-billing), it is positive
// and the states fewer.
func TestCollapsedCountsRenamingsOnly(t *testing.T) {
	cases := []struct {
		scenario string
		ops      int
		merges   bool
	}{
		{"at-least-once-duplicate", 3, false},
		{"double-billing", 4, true},
	}
	for _, c := range cases {
		cfg := exploreConfig(t, c.scenario, sim.Idempotent, c.ops, "loss,ack-loss", nil)
		opt := search.Options{MaxFaults: c.ops, Promise: sim.ExactlyOne}
		reduced, err := search.Explore(cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Reduce = search.ReduceNone
		plain, err := search.Explore(cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !reduced.Symmetry || !reduced.Complete || !plain.Complete {
			t.Fatalf("%s: symmetry=%v complete=%v/%v", c.scenario, reduced.Symmetry, reduced.Complete, plain.Complete)
		}
		if plain.Collapsed != 0 {
			t.Errorf("%s: the unreduced search counts %d collapsed", c.scenario, plain.Collapsed)
		}
		switch {
		case !c.merges && (reduced.Collapsed != 0 || reduced.States != plain.States):
			t.Errorf("%s: %d collapsed, %d states against %d unreduced; want 0 and the same", c.scenario, reduced.Collapsed, reduced.States, plain.States)
		case c.merges && (reduced.Collapsed == 0 || reduced.States >= plain.States):
			t.Errorf("%s: %d collapsed, %d states against %d unreduced; want some and fewer", c.scenario, reduced.Collapsed, reduced.States, plain.States)
		}
		t.Logf("%s %d/%d: %d states (%d collapsed), unreduced %d", c.scenario, c.ops, c.ops, reduced.States, reduced.Collapsed, plain.States)
	}
}

// TestSymmetricSearchStaysUndivided: a search under the symmetry
// reduction past the split point (16 384 states) is not run as parts —
// its parts' subtrees are largely renamings of each other, and separate
// visited sets would store them once per part (2.2× at 6 / 6) — while the
// same search without the reduction still is (search.Options.Tuning,
// docs/explore.md "Small searches stay undivided").
func TestSymmetricSearchStaysUndivided(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.Idempotent, 7, "loss,ack-loss", nil)
	run := func(reduce search.Reduction, splitAt, workers int) *search.Result {
		t.Helper()
		res, err := search.Explore(cfg, search.Options{MaxFaults: 7, Promise: sim.ExactlyOne, Reduce: reduce, Workers: workers, Tuning: search.Tuning{SplitAt: splitAt}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Holds || !res.Complete {
			t.Fatalf("reduce=%v split=%d: holds=%v complete=%v", reduce, splitAt, res.Holds, res.Complete)
		}
		return res
	}
	undivided := run(search.ReduceAll, -1, 1)
	for _, workers := range []int{1, 2} {
		if got := run(search.ReduceAll, 0, workers); got.Stats != undivided.Stats {
			t.Errorf("symmetry, %d workers: %+v, want the undivided search's %+v", workers, got.Stats, undivided.Stats)
		}
	}
	if undivided.States < 1<<14 {
		t.Fatalf("%d states: below the split point, nothing is tested", undivided.States)
	}
	if parts, whole := run(search.ReduceNone, 0, 2), run(search.ReduceNone, -1, 1); parts.States <= whole.States {
		t.Errorf("without the reduction the search no longer splits: %d states as parts, %d undivided", parts.States, whole.States)
	}
}

// canonicalIDs returns a copy of w whose issued ids are renamed, onto the
// same set, in the order they first appear (rows table by table, the
// queue in order, the checker's outcomes: a walk that no id's value
// steers), so that two states that differ by a permutation of their ids
// alone come out the same.
func canonicalIDs(sym *sim.Symmetry, w *sim.World) *sim.World {
	same := make([]sim.OpID, w.Config().Ops+1)
	for i := range same {
		same[i] = sim.OpID(i)
	}
	var order []int64
	seen := map[int64]bool{}
	sym.RenamedIDs(w, same, func(v int64) int64 {
		if !seen[v] {
			seen[v] = true
			order = append(order, v)
		}
		return v
	})
	sorted := slices.Sorted(slices.Values(order))
	to := make(map[int64]int64, len(order))
	for i, v := range order {
		to[v] = sorted[i]
	}
	return sym.RenamedIDs(w, same, func(v int64) int64 { return to[v] })
}

// canonicalAttempts returns a copy of w whose started operations' attempt
// numbers are shifted so that each has sent 100 requests.
func canonicalAttempts(sym *sim.Symmetry, w *sim.World) *sim.World {
	by := make([]int32, w.Config().Ops+1)
	for op := range by[1:] {
		by[op+1] = 100 - w.Checker().Tally(sim.OpID(op+1)).Attempts
	}
	return sym.ShiftedAttempts(w, by)
}
