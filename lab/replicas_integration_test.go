//go:build integration

package lab_test

import (
	"path/filepath"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// The idempotent starter holds with two replicas and crashes at ≤ 2
// faults and one preemption (issue 29 item 5): a crash restarts both replicas, both run the
// recovery, and each PROCESSING key is claimed by one of them
// (compare_and_set) before it is looked up, so a key the gateway never
// charged is charged once, not once per replica.
func TestIntegrationIdempotentStarterHoldsWithReplicasAndCrashes(t *testing.T) {
	l := newLab(t, "double-billing", "service", []string{labtest.BuildGo(t, "idempotent_service")}, nil)
	l.Replicas = 2
	l.Settings.Ops = l.Scenario.ExploreDefaults.Ops
	faults, _, err := scenarios.ExploreFaults("loss,ack-loss,crash")
	if err != nil {
		t.Fatal(err)
	}
	faults.Probability[sim.FaultPreempt] = 0.5 // and a replica held back at a store answer
	l.Settings.Faults = faults
	judge := l.JudgeFor(sim.Idempotent)
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, MaxPreemptions: 1, Judge: &judge, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v holds %v complete %v %s", res.ExploreStats, res.Holds, res.Complete, res.Why)
	if !res.Holds || !res.Complete {
		plan, _ := l.Faults(sim.Idempotent, res.Choices)
		t.Fatalf("explore: holds %v complete %v: %s (plan %+v)", res.Holds, res.Complete, res.Why, plan)
	}
	if s := labtest.Marked(t); len(s) > 0 {
		t.Errorf("processes survived: %v", s)
	}
}

// The Python starter's recovery claims keys the same way: two replicas
// and crashes at ≤ 2 faults hold.
func TestIntegrationPythonStarterHoldsWithReplicasAndCrashes(t *testing.T) {
	script := filepath.Join(labtest.Root(t), "examples", "lab", "python", "idempotent_service.py")
	l := newLab(t, "double-billing", "service", []string{labtest.Python(t), script}, nil)
	l.Replicas = 2
	l.Settings.Ops = l.Scenario.ExploreDefaults.Ops
	faults, _, err := scenarios.ExploreFaults("loss,ack-loss,crash")
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = faults
	judge := l.JudgeFor(sim.Idempotent)
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Judge: &judge, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v holds %v complete %v %s", res.ExploreStats, res.Holds, res.Complete, res.Why)
	if !res.Holds || !res.Complete {
		t.Fatalf("explore: holds %v complete %v: %s", res.Holds, res.Complete, res.Why)
	}
	if s := labtest.Marked(t); len(s) > 0 {
		t.Errorf("processes survived: %v", s)
	}
}
