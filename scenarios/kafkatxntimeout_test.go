package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// TestZombieFencingFinishesAfterACrash: kafka-zombie-fencing's coordinator
// had no transaction timeout, so a worker-a that crashed after its
// txn-offset-commit was accepted (and restarted as a standby, never calling
// init-producer-id) left its transaction ONGOING for ever: worker-b's
// offset-fetch got UNSTABLE_OFFSET_COMMIT (88) until the event budget ran
// out (run --semantics txn --crash 0.2 --seed 2), and explore with
// pause,crash ended INCOMPLETE at the depth budget. With the coordinator's
// transaction.timeout.ms the abandoned transaction is aborted and the new
// owner proceeds: the run finishes with every operation once, and the
// search completes.
func TestZombieFencingFinishesAfterACrash(t *testing.T) {
	sc, err := scenarios.Lookup("kafka-zombie-fencing")
	if err != nil {
		t.Fatal(err)
	}
	faults := sc.Faults
	faults.Probability[sim.FaultCrash] = 0.2
	o, err := runs.Outcome(sc, scenarios.Settings{Semantics: sim.Transactional, Ops: sc.Ops, Faults: faults}, sim.NewRandom(2), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Finished() || o.Count(sim.ExactlyOnce) != sc.Ops {
		t.Errorf("txn --crash 0.2 --seed 2: finished=%v, %d of %d operations once", o.Finished(), o.Count(sim.ExactlyOnce), sc.Ops)
	}
	cfg := exploreConfig(t, "kafka-zombie-fencing", sim.Transactional, 2, "pause,crash", nil)
	res, err := search.Explore(cfg, search.Options{MaxFaults: 2, Promise: sim.ExactlyOne, MaxDepth: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || !res.Holds {
		t.Errorf("explore txn pause,crash ≤2: complete=%v holds=%v", res.Complete, res.Holds)
	}
}
