package search

import (
	"testing"

	"github.com/oncesim/once/sim"
)

// TestPooledWorldsLetTheirPartGo: the world buffers a part leaves in its
// worker's pool must not point at that part's explorer (its choosers, and
// through them its visited set), or a part that ended stays alive,
// uncounted by the memory budget, beside the next one.
func TestPooledWorldsLetTheirPartGo(t *testing.T) {
	cfg := storeConfig()
	root, err := sim.NewWorld(cfg, sim.Defaults{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{MaxFaults: 1, MaxPreemptions: 2, Promise: sim.ExactlyOne, Kinds: sim.AllFaultKinds,
		MaxDepth: DefaultMaxDepth, MaxStates: DefaultMaxStates, MaxMemory: DefaultMaxMemory, ProgressEvery: 100}
	plan := (&Shard{Count: 1}).plan(root, opt)
	every, window, _, err := opt.Tuning.resolve()
	if err != nil {
		t.Fatal(err)
	}
	var pool []*worldBuf
	runPart(root.Clone(), opt, plan, 0, opt.MaxStates, nil, &pool, nil, every, window)
	if len(pool) == 0 {
		t.Fatal("the part left no world in the pool: the test would prove nothing")
	}
	for i, b := range pool {
		switch ch := b.w.Chooser().(type) {
		case *stepChooser:
			t.Fatalf("pooled world %d still points at its part's step chooser (%p)", i, ch)
		}
	}
}
