package lab_test

import (
	"strings"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// raceLab is concurrent-same-key, one operation, with node played by two
// replicas and the explorer's faults.
func raceLab(t *testing.T, node string) *lab.Lab {
	t.Helper()
	l := newLab(t, "concurrent-same-key", "service", testNode(node), nil)
	l.Settings.Ops = 1
	faults, _, err := scenarios.ExploreFaults("loss,ack-loss")
	if err != nil {
		t.Fatal(err)
	}
	faults.Probability[sim.FaultPreempt] = 0.5
	l.Settings.Faults = faults
	if l.ReplicaCount() != 2 {
		t.Fatalf("concurrent-same-key plays %d replicas, want 2 by default", l.ReplicaCount())
	}
	return l
}

// Check, then insert is caught with one preemption and no fault: two
// reads of the same key before either write; the plan names the store
// answer held back, and replaying it duplicates again.
func TestRacyServiceCaughtWithOnePreemption(t *testing.T) {
	l := raceLab(t, "racy-service")
	judge := l.JudgeFor(sim.Idempotent)
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, MaxPreemptions: 1, Judge: &judge, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds {
		t.Fatalf("explore holds over %d schedules, want the race", res.Schedules)
	}
	faults, err := l.Faults(sim.Idempotent, res.Choices)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := l.Shrink(sim.Idempotent, judge, faults, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 1 || plan[0].Kind != sim.ChoicePreempt {
		t.Fatalf("shrunk plan %+v, want one preemption", plan)
	}
	sess, err := l.NewSession(sim.Idempotent)
	if err != nil {
		t.Fatal(err)
	}
	line := sess.Config().Topology.FaultLine(plan[0])
	sess.Close()
	if !strings.Contains(line, "preempt") || !strings.Contains(line, "msg=read_ok") {
		t.Errorf("plan line %q, want the read's answer named", line)
	}
	v, _, err := l.Violates(sim.Idempotent, judge, plan, nil, nil)
	if err != nil || !v {
		t.Errorf("replaying the plan: violated %v, err %v", v, err)
	}
	if s := labtest.Marked(t); len(s) > 0 {
		t.Errorf("processes survived: %v", s)
	}
}

// One atomic insert_if_absent holds under every interleaving within two
// preemptions; the verdict and counts do not depend on the workers.
func TestUniqueInsertProvedWithPreemptions(t *testing.T) {
	l := raceLab(t, "unique-service")
	var stats []lab.ExploreStats
	for _, w := range []int{1, 2} {
		res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 0, MaxPreemptions: 2, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Holds || !res.Complete {
			t.Fatalf("workers %d: holds %v complete %v: %s %s", w, res.Holds, res.Complete, res.Why, res.Cut)
		}
		stats = append(stats, res.ExploreStats)
	}
	if stats[0] != stats[1] || stats[0].Schedules < 3 {
		t.Errorf("stats %+v, want equal and several schedules", stats)
	}
}
