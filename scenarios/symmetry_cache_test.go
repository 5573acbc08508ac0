package scenarios_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/oncesim/once/sim"
)

// TestSymmetryCacheIsTransparent: the orbit fingerprint of a state, and
// the naming it was mapped by, do not depend on what the Symmetry
// fingerprinted before. A Symmetry caches the normalised rows of the
// age-free tables under the tables' contents, with the operations' counts
// of requests sent that the rows' attempt numbers were read against
// (sim.AttemptRenamer); a cached table reused after a count changed (a
// retry: the client's ops row and the seen table are age-free) would see
// an attempt against the wrong count, and two states that are not
// renamings of each other could share a fingerprint. So, along random
// schedules of the symmetric double-billing and queue configurations,
// each state is fingerprinted by the Symmetry that fingerprinted every
// state before it and by a fresh one (Clone: an empty cache), and the
// two must agree.
func TestSymmetryCacheIsTransparent(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg, name := symmetricSetting(rt)
		sym, off := sim.NewSymmetry(cfg, sim.AllFaultKinds)
		if sym == nil {
			rt.Fatalf("%s: symmetry off: %s", name, off)
		}
		w, err := sim.NewWorld(cfg, &recorder{t: rt}, nil)
		if err != nil {
			rt.Fatal(err)
		}
		var buf []byte
		steps := rapid.IntRange(1, 120).Draw(rt, "steps")
		for step := 0; step < steps && w.Ended() == sim.Running; step++ {
			w.Step()
			warm, _ := sym.Fingerprint(w, &buf)
			naming := sym.Naming()
			fresh := sym.Clone()
			cold, _ := fresh.Fingerprint(w, &buf)
			if warm != cold || naming != fresh.Naming() {
				rt.Fatalf("%s, step %d: the fingerprint depends on the cache: %x (naming %x) with it, %x (naming %x) without",
					name, step, warm, naming, cold, fresh.Naming())
			}
		}
	})
}
