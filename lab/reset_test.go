package lab_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// resetLab is at-least-once-duplicate, 2 operations, the scenario's
// explore faults, played by test node mode; spawns counts its processes.
func resetLab(t *testing.T, spawns *atomic.Int64, node ...string) *lab.Lab {
	t.Helper()
	l := newLab(t, "at-least-once-duplicate", "consumer", testNode(node[0], node[1:]...), nil)
	l.Settings.Ops = 2
	faults, _, err := l.Scenario.ExploreFaults(l.Scenario.ExploreDefaults.Faults)
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = faults
	l.OnSpawn = func(int) { spawns.Add(1) }
	return l
}

// A node that declares reset is reused across schedules (and drained
// and reset at a crash instead of restarted), and the search finds
// exactly what it finds with fresh processes, whatever the worker count.
func TestResetGivesTheFreshProcessesVerdict(t *testing.T) {
	var fresh, reused atomic.Int64
	want, err := resetLab(t, &fresh, "reset-consumer", "no-reset").Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !want.Holds || !want.Complete || want.Schedules < 8 {
		t.Fatalf("fresh processes: %+v, want a complete proof over some schedules", want)
	}
	if fresh.Load() < int64(want.Schedules) {
		t.Errorf("fresh processes: %d spawned for %d schedules, want one at least per schedule", fresh.Load(), want.Schedules)
	}
	t.Logf("fresh: %+v, %d processes", want.ExploreStats, fresh.Load())
	for _, w := range []int{1, 2, 4} {
		reused.Store(0)
		got, err := resetLab(t, &reused, "reset-consumer").Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if got.ExploreStats != want.ExploreStats || got.Holds != want.Holds || got.Complete != want.Complete {
			t.Errorf("workers %d, reset: %+v, want the fresh processes' %+v", w, got, want)
		}
		// A process per worker, a few more for the reset check.
		if n := reused.Load(); n > int64(w)+6 {
			t.Errorf("workers %d, reset: %d processes spawned for %d schedules, want them reused", w, n, got.Schedules)
		}
	}
}

// A reset that forgets less than a fresh start is named as such.
func TestResetThatKeepsStateIsNamed(t *testing.T) {
	var n atomic.Int64
	_, err := resetLab(t, &n, "reset-leaky").Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 1})
	var ne *lab.NondeterminismError
	if !errors.As(err, &ne) || !ne.AfterReset {
		t.Fatalf("err = %v, want a *lab.NondeterminismError after a reset", err)
	}
	if !strings.Contains(err.Error(), "answers otherwise after a reset than as a fresh process") {
		t.Errorf("err = %v, want it to say the reset is to blame", err)
	}
}

// A reset is answered with done alone: anything else fails the run,
// naming the reset.
func TestResetAnsweredWithAnActionFails(t *testing.T) {
	var n atomic.Int64
	_, err := resetLab(t, &n, "reset-bad").Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 1})
	var le *lab.Error
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "reset, between runs or at a crash") || !strings.Contains(err.Error(), "a reset is answered with done alone") {
		t.Fatalf("err = %v, want the reset's answer refused", err)
	}
}

// A search in which no schedule offered a fault is no proof: it ends
// INCOMPLETE, saying so, not HOLDS.
func TestExploreWithNoChoiceIsNoProof(t *testing.T) {
	var n atomic.Int64
	l := resetLab(t, &n, "reset-consumer")
	l.Settings.Faults = scenarios.Faults{}
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Holds || res.Complete || res.Offered != 0 || !strings.Contains(res.Cut, "nothing is proved") {
		t.Errorf("got %+v, want an incomplete search that says nothing is proved", res)
	}
}

// A node that sends in a restarted init, played by two replicas, keeps
// its reset: a crash at that send drains the process and its done
// declares reset, and the replica not yet handed its init goes back to
// the pool as it is (issue 29 item 6: both were killed, and every such
// restart spawned processes).
func TestResetKeptWhenInitSends(t *testing.T) {
	var spawns atomic.Int64
	l := resetLab(t, &spawns, "reset-init-sends")
	l.Replicas = 2
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Workers: 1, Promise: sim.AtMostOne})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Holds || !res.Complete {
		t.Fatalf("%+v, want a complete proof", res)
	}
	// The same node without the send in init: what reset costs anyway —
	// a process per replica, and the fresh ones of the reset checks (a
	// replica each on the fault-free schedule; on the first schedule of
	// a fault count, its restarts only).
	var plain atomic.Int64
	pl := resetLab(t, &plain, "reset-consumer")
	pl.Replicas = 2
	base, err := pl.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Workers: 1, Promise: sim.AtMostOne})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v: %d processes started; without the send in init %d for %d schedules", res.ExploreStats, spawns.Load(), plain.Load(), base.Schedules)
	// 20 before, for these 158 schedules; 4 now, as many as without it.
	if n := spawns.Load(); n > plain.Load() || n > 2*int64(l.Replicas) {
		t.Errorf("%d processes started for %d schedules, want at most 2 × %d replicas, and no more than the %d of the same node that does not send in init",
			n, res.Schedules, l.Replicas, plain.Load())
	}
}

// What a reset node starts is reaped with each run, not when the explore
// ends (issue 29: 1,316 sleeps piled up).
func TestResetReapsChildrenPerRun(t *testing.T) {
	var spawns atomic.Int64
	l := resetLab(t, &spawns, "reset-spawner")
	most := 0
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 1, Progress: func(lab.ExploreStats) {
		n := 0
		for _, p := range labtest.Marked(t) {
			if strings.Contains(p, "sleep") {
				n++
			}
		}
		most = max(most, n)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v: at most %d sleeps alive between chunks", res.ExploreStats, most)
	if most > 0 {
		t.Errorf("%d children of reset nodes alive between runs, want none", most)
	}
}
