package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestSagaParticipantsCrash: the saga's participants crash too, after a
// step and before its answer (crash point after-step). They used to have
// no crash point, so every participant answered the step it did. Now some
// run of saga-orchestrator under idem loses a participant's answer this
// way, and every such run still reserves each trip exactly once with
// all-or-nothing holding: the orchestrator's durable log calls the step
// again with the same step key, and the restarted participant answers
// from its durable key table.
func TestSagaParticipantsCrash(t *testing.T) {
	sc, err := scenarios.Lookup("saga-orchestrator")
	if err != nil {
		t.Fatal(err)
	}
	set := sc.Expect[1].Settings(sc) // idem, durable log
	if set.Semantics != sim.Idempotent || set.Params["log"] != "" && set.Params["log"] != "durable" {
		t.Fatalf("row 2 of saga-orchestrator is no longer idem with a durable log: update this test")
	}
	crashedRuns := 0
	for seed := uint64(1); seed <= 100; seed++ {
		var rec participantCrashes
		cfg, err := sc.Config(set)
		if err != nil {
			t.Fatal(err)
		}
		rec.topo = cfg.Topology
		o, err := runs.Outcome(sc, set, sim.NewRandom(seed), &rec)
		if err != nil {
			t.Fatal(err)
		}
		if rec.n == 0 {
			continue
		}
		crashedRuns++
		if o.Status != sim.Held {
			t.Errorf("seed %d: a participant crashed after a step and the run did not hold: %s", seed, o.Why)
		}
	}
	if crashedRuns == 0 {
		t.Fatal("no participant crashed at after-step over 100 seeds")
	}
}

// participantCrashes counts crashes of saga participants at after-step.
type participantCrashes struct {
	topo *sim.Topology
	n    int
}

func (p *participantCrashes) Record(e *sim.Event) {
	if e.Kind != sim.EvCrash {
		return
	}
	switch p.topo.Nodes[e.Node].Name {
	case "flights", "hotels", "charges":
		if p.topo.Points[e.Label] == "after-step" {
			p.n++
		}
	}
}
