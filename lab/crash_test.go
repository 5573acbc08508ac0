package lab_test

import (
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// A node that sends from a restarted init, played by two replicas, and
// crashed there, as --check --crash 0.3 draws it: the crash ends both
// replicas' incarnation, and the one not yet handed its init is not
// handed it (issue 29: a nil pointer in writeLine from Node.Start, hit
// by 13 of seeds 1..20, 1 and 2 among them).
func TestCrashInARestartedInitWithReplicas(t *testing.T) {
	l := newLab(t, "double-billing", "service", testNode("init-sends"), nil)
	l.Settings.Ops = 1
	l.Replicas = 2
	crashes, _, err := scenarios.ExploreFaults("crash")
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = crashes
	l.Settings.Faults.Probability[sim.FaultCrash] = 0.3
	for _, seed := range []uint64{1, 2} {
		if _, err := l.Run(sim.Idempotent, sim.NewRandom(seed), nil); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}
