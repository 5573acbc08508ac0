//go:build integration

// The lab's tests with Python nodes (make test-integration): each starts
// an interpreter per run.
package lab_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

func fixture(t testing.TB, name string) []string {
	return []string{labtest.Python(t), filepath.Join("testdata", name)}
}

// A node that hangs, dies or writes garbage stops the run with one line
// naming the node and the step, and leaves no process behind — not even
// the child the hanging one started in its process group.
func TestIntegrationBrokenNodesGiveOneLineAndLeaveNothing(t *testing.T) {
	cases := []struct {
		file string
		want string
	}{
		{"hang.py", "did not answer within --step-timeout 2s"},
		{"die.py", "exited (exit status 3) before done"},
		{"garbage.py", `wrote a line that is not JSON: "hello, I am not JSON"`},
		{"typo.py", "broke the protocol: field body.in_replyto is not a field of the protocol"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			pids := &labtest.Pids{}
			l := newLab(t, "double-billing", "service", fixture(t, c.file), pids)
			l.StartAllowance = -1
			_, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
			var le *lab.Error
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *lab.Error", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "lab: node service, step 1 (init, incarnation 1): ") || !strings.Contains(msg, c.want) {
				t.Errorf("error = %q, want node, step and %q", msg, c.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans lines: %q", msg)
			}
			if pids.Len() != 1 {
				t.Errorf("%d processes started, want 1", pids.Len())
			}
			if s := pids.Survivors(t); len(s) > 0 {
				t.Errorf("processes survived the run: %v", s)
			}
		})
	}
}

// A node that draws an unseeded random answers the same event differently
// in two runs of one schedule: named, with the step.
func TestIntegrationNondeterministicNodeIsNamed(t *testing.T) {
	pids := &labtest.Pids{}
	l := newLab(t, "at-least-once-duplicate", "consumer", fixture(t, "random_consumer.py"), pids)
	err := l.CheckDeterminism(sim.Idempotent, func() sim.Chooser { return sim.NewRandom(1) })
	var ne *lab.NondeterminismError
	if !errors.As(err, &ne) {
		t.Fatalf("err = %v, want a *lab.NondeterminismError", err)
	}
	if ne.Node != "consumer" || ne.Step != 2 || !strings.Contains(ne.Event, "delivery of deliver") || !strings.Contains(ne.First, `"effect"`) {
		t.Errorf("got %+v, want consumer's step 2 (its first delivery), the effect line", ne)
	}
	if s := pids.Survivors(t); len(s) > 0 {
		t.Errorf("processes survived: %v", s)
	}
}

// The explorer checks determinism too, prefix by prefix.
func TestIntegrationExploreNamesNondeterminism(t *testing.T) {
	l := newLab(t, "at-least-once-duplicate", "consumer", fixture(t, "random_consumer.py"), nil)
	l.Settings.Ops = 2                                // op-2's faults come after op-1's billing: its prefix is replayed
	losses, _, err := scenarios.ExploreFaults("loss") // lost requests: retried, never duplicated
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = losses
	_, err = l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 1})
	var ne *lab.NondeterminismError
	if !errors.As(err, &ne) {
		t.Fatalf("err = %v, want a *lab.NondeterminismError", err)
	}
}

// doc_consumer.py was written from docs/lab-protocol.md alone. It keeps
// its dedup rows in the volatile store: correct without crashes, and the
// explorer finds the crash that makes it bill twice.
func TestIntegrationNodeWrittenFromTheDocument(t *testing.T) {
	pids := &labtest.Pids{}
	l := newLab(t, "at-least-once-duplicate", "consumer", fixture(t, "doc_consumer.py"), pids)
	l.Settings.Ops = 2
	crashes, _, err := scenarios.ExploreFaults("crash")
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = crashes
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds {
		t.Fatalf("explore holds, want the crash that loses the volatile dedup rows")
	}
	faults, err := l.Faults(sim.Idempotent, res.Choices)
	if err != nil {
		t.Fatal(err)
	}
	if len(faults) != 1 || faults[0].Kind != sim.ChoiceCrash {
		t.Errorf("faults = %+v, want one crash", faults)
	}
	if !strings.Contains(res.Why, "2 effects") {
		t.Errorf("why = %q, want a duplicated billing", res.Why)
	}
	if s := pids.Survivors(t); len(s) > 0 {
		t.Errorf("processes survived: %v", s)
	}
}

// Timers come from the harness: a commit sent from a timer 50ms after the
// billing arrives, and a cancelled timer is never handed to the node.
func TestIntegrationTimers(t *testing.T) {
	l := newLab(t, "at-least-once-duplicate", "consumer", fixture(t, "timer_consumer.py"), nil)
	l.Settings.Ops = 3
	r, err := l.Run(sim.Idempotent, sim.Defaults{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome.Status != sim.Held {
		t.Errorf("status %s (%s), want held", r.Outcome.Status, r.Outcome.Why)
	}
	var timers []string
	for _, s := range r.Steps {
		if strings.HasPrefix(s.Event, "timer ") {
			timers = append(timers, s.Event)
		}
	}
	if want := []string{"timer retry #2", "timer retry #4", "timer retry #6"}; !slices.Equal(timers, want) {
		t.Errorf("timers handed to the node: %q, want %q", timers, want)
	}
}
