package lab_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/lab"
	"github.com/oncesim/once/scenarios/lab/labtest"
	"github.com/oncesim/once/sim"
)

// newLab is a lab of scenario name with node played by argv.
func newLab(t testing.TB, name, node string, argv []string, pids *labtest.Pids) *lab.Lab {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	l := &lab.Lab{Scenario: sc, Settings: scenarios.Settings{Ops: sc.Ops, Faults: sc.Faults}, Seed: 1,
		Commands: map[string][]string{node: argv}, StepTimeout: 2 * time.Second}
	if pids != nil {
		l.OnSpawn = pids.Add
	}
	if err := l.Validate(); err != nil {
		t.Fatal(err)
	}
	return l
}

func fixture(t testing.TB, name string) []string {
	return []string{labtest.Python(t), filepath.Join("testdata", name)}
}

// A node that hangs, dies or writes garbage stops the run with one line
// naming the node and the step, and leaves no process behind — not even
// the child the hanging one started in its process group.
func TestBrokenNodesGiveOneLineAndLeaveNothing(t *testing.T) {
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
func TestNondeterministicNodeIsNamed(t *testing.T) {
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
func TestExploreNamesNondeterminism(t *testing.T) {
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
func TestNodeWrittenFromTheDocument(t *testing.T) {
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

// The explorer's verdict and counts do not depend on its worker count.
func TestExploreIsIndependentOfWorkers(t *testing.T) {
	bin := labtest.BuildGo(t, "idempotent_consumer")
	l := newLab(t, "at-least-once-duplicate", "consumer", []string{bin}, nil)
	l.Settings.Ops = 2
	var got []lab.ExploreStats
	for _, w := range []int{1, 3} {
		res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Holds || !res.Complete {
			t.Fatalf("workers %d: holds %v complete %v (%s, %s)", w, res.Holds, res.Complete, res.Why, res.Cut)
		}
		got = append(got, res.ExploreStats)
	}
	if got[0] != got[1] {
		t.Errorf("stats differ by worker count: %+v vs %+v", got[0], got[1])
	}
}

// Unknown nodes and roles a lab node cannot play are refused up front.
func TestValidateRefusesWhatItCannotPlay(t *testing.T) {
	sc, _ := scenarios.Lookup("double-billing")
	for node, want := range map[string]string{
		"nobody":  "scenario double-billing has no node nobody",
		"gateway": "a lab node cannot play role of this node (playable roles: payment-service, consumer)",
	} {
		l := &lab.Lab{Scenario: sc, Settings: scenarios.Settings{Ops: 1, Faults: sc.Faults}, Commands: map[string][]string{node: {"/bin/true"}}}
		if err := l.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--node %s: err = %v, want %q", node, err, want)
		}
	}
}

// Timers come from the harness: a commit sent from a timer 50ms after the
// billing arrives, and a cancelled timer is never handed to the node (the
// engine has no cancellation: the trace still shows it fire, unheard).
func TestTimers(t *testing.T) {
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
