package enginetest_test

import (
	"reflect"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestSwarmRunsMatchFreshWorlds: a reused world in swarm mode gives, seed
// by seed, what a fresh world gives under NewSwarm(seed) — the chooser a
// replay (once run --swarm) uses — and the swarm changes schedules: over
// the seeds, some run differs from the plain random run of its seed.
func TestSwarmRunsMatchFreshWorlds(t *testing.T) {
	for _, name := range []string{"double-billing", "at-least-once-duplicate", "transaction-abort"} {
		sc, err := scenarios.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		sem := sc.Semantics[len(sc.Semantics)-1]
		cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults})
		if err != nil {
			t.Fatal(err)
		}
		runs, err := sim.NewRuns(cfg)
		if err != nil {
			t.Fatal(err)
		}
		runs.SetDigest(true)
		runs.SetSwarm(true)
		differ := 0
		for seed := uint64(1); seed <= 20; seed++ {
			w, err := sim.NewWorld(cfg, sim.NewSwarm(seed), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := w.Run()
			if got := runs.Run(seed); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s seed %d: reused swarm world gave\n%+v\nfresh world gave\n%+v", name, seed, got, want)
			}
			plain, err := sim.NewWorld(cfg, sim.NewRandom(seed), nil)
			if err != nil {
				t.Fatal(err)
			}
			if plain.Run().Digest != want.Digest {
				differ++
			}
		}
		if differ == 0 {
			t.Errorf("%s: 20 swarm seeds ran the plain random schedules", name)
		}
	}
}
