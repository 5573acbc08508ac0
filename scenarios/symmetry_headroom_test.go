package scenarios_test

import (
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
// every renaming of the operations (brute force: the least fingerprint
// over the n! renamings of each), into exactly as many orbits as the
// reduced search stores distinct canonical states. A state component that
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
					least = min(least, sym.Renamed(w, to).Fingerprint())
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
