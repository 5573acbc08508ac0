//go:build integration

package lab_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// minimalCounterexample explores l under sem with the fault kinds kinds
// at ≤ maxFaults, judged by the scenario's row, and returns the shrunk
// plan of the counterexample it must find, with the violation's words.
func minimalCounterexample(t *testing.T, l *lab.Lab, sem sim.Semantics, kinds string, maxFaults int) ([]sim.Fault, string) {
	t.Helper()
	faults, _, err := scenarios.ExploreFaults(kinds)
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = faults
	judge := l.JudgeFor(sem)
	res, err := l.Explore(sem, lab.ExploreOptions{MaxFaults: maxFaults, Judge: &judge, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds {
		t.Fatalf("explore holds over %d schedules (%s), want a counterexample", res.Schedules, judge.Against())
	}
	found, err := l.Faults(sem, res.Choices)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := l.Shrink(sem, judge, found, nil)
	if err != nil {
		t.Fatal(err)
	}
	violated, r, err := l.Violates(sem, judge, plan, nil, nil)
	if err != nil || !violated {
		t.Fatalf("replaying the shrunk plan %+v: violated %v, err %v", plan, violated, err)
	}
	_, why := judge.RunVerdict(r)
	t.Logf("%d schedules; plan %+v: %s", res.Schedules, plan, why)
	if s := labtest.Marked(t); len(s) > 0 {
		t.Errorf("processes survived: %v", s)
	}
	return plan, why
}

// A service that answers a replay with a transaction id rendered again
// (not the stored response) is a counterexample in a payment scenario
// under idem (issue 29 item 3: it was "held", distinct_responses 2): one
// slow first answer reaches the client after the retry's.
func TestIntegrationReplayWithNewTransactionIDIsCaught(t *testing.T) {
	l := newLab(t, "double-billing", "service", testNode("recompute-service"), nil)
	l.Settings.Ops = 1
	judge := l.JudgeFor(sim.Idempotent)
	if !judge.Receipts || !strings.Contains(judge.Against(), "one-receipt") {
		t.Fatalf("judged against %q, want one-receipt judged too", judge.Against())
	}
	plan, why := minimalCounterexample(t, l, sim.Idempotent, "loss,ack-loss,slow", 2)
	if len(plan) > 1 {
		t.Errorf("shrunk plan has %d faults, want at most one", len(plan))
	}
	if !strings.Contains(why, "one-receipt") || !strings.Contains(why, "two different receipts") {
		t.Errorf("verdict %q, want the one-receipt violation", why)
	}
	// The service that replays the stored response holds under the same
	// search.
	good := newLab(t, "double-billing", "service", testNode("unique-service"), nil)
	good.Settings.Ops = 1
	good.Settings.Faults = l.Settings.Faults
	gj := good.JudgeFor(sim.Idempotent)
	res, err := good.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Judge: &gj, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Holds || !res.Complete {
		t.Errorf("the stored-response service: holds %v complete %v (%s), want a proof", res.Holds, res.Complete, res.Why)
	}
}

// A consumer that commits the offset before it records and bills loses
// the billing to one crash, at the crash point after the commit's send
// (issue 29 item 3: never caught at ≤ 4 faults).
func TestIntegrationCommitBeforeEffectIsCaughtWithOneCrash(t *testing.T) {
	l := newLab(t, "at-least-once-duplicate", "consumer", testNode("commit-first-consumer"), nil)
	l.Settings.Ops = 1
	plan, why := minimalCounterexample(t, l, sim.Idempotent, "crash", 1)
	if len(plan) != 1 || plan[0].Kind != sim.ChoiceCrash {
		t.Fatalf("shrunk plan %+v, want one crash", plan)
	}
	sess, err := l.NewSession(sim.Idempotent)
	if err != nil {
		t.Fatal(err)
	}
	line := sess.Config().Topology.FaultLine(plan[0])
	sess.Close()
	if !strings.Contains(line, "lab-after-send") {
		t.Errorf("plan line %q, want the crash after the commit's send", line)
	}
	if !strings.Contains(why, "0 effects") {
		t.Errorf("verdict %q, want the billing lost", why)
	}
}

// A node that declares reset, crashed at lab-after-send while it waits
// for a store answer, is drained (the answer comes from the copy of the
// stores) and reused, not killed: the search is the fresh processes' one,
// with a handful of processes.
func TestIntegrationCrashAfterSendDrainsAResetNode(t *testing.T) {
	var fresh, reused atomic.Int64
	run := func(node string, spawns *atomic.Int64) *lab.ExploreResult {
		l := newLab(t, "at-least-once-duplicate", "consumer", testNode(node), nil)
		l.Settings.Ops = 2
		faults, _, err := scenarios.ExploreFaults("crash")
		if err != nil {
			t.Fatal(err)
		}
		l.Settings.Faults = faults
		l.OnSpawn = func(int) { spawns.Add(1) }
		res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Workers: 1, Promise: sim.AtMostOne})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	want := run("commit-first-consumer", &fresh)
	got := run("reset-commit-first", &reused)
	t.Logf("fresh: %+v, %d processes; reset: %+v, %d processes", want.ExploreStats, fresh.Load(), got.ExploreStats, reused.Load())
	if got.ExploreStats != want.ExploreStats || got.Holds != want.Holds {
		t.Errorf("reset: %+v holds %v, want the fresh processes' %+v holds %v", got.ExploreStats, got.Holds, want.ExploreStats, want.Holds)
	}
	// One for the search, one for the fault-free check, and the fresh
	// restarts of the checks at 1 and 2 faults (1 + 2 crashes); 113 fresh.
	if n := reused.Load(); n > 5 {
		t.Errorf("reset: %d processes started for %d schedules, want the drained ones reused", n, got.Schedules)
	}
}
