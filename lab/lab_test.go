package lab_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/scenarios"
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

// The explorer's verdict and counts do not depend on its worker count.
func TestExploreIsIndependentOfWorkers(t *testing.T) {
	bin := labtest.BuildGo(t, "idempotent_consumer")
	l := newLab(t, "at-least-once-duplicate", "consumer", []string{bin}, nil)
	l.Settings.Ops = 2
	var got []lab.ExploreStats
	for _, w := range []int{1, 3} {
		res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: w})
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

// A pyenv-style shim (a shims/python3 script) is replaced by the
// interpreter it selects; any other command is kept.
func TestParseCommandResolvesAPythonShim(t *testing.T) {
	dir := t.TempDir() + "/shims"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shim := dir + "/python3"
	if err := os.WriteFile(shim, []byte("#!/bin/sh\necho /bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, argv, err := lab.ParseCommand("service=" + shim + " my.py")
	if err != nil {
		t.Fatal(err)
	}
	if argv[0] != "/bin/sh" || argv[1] != "my.py" {
		t.Errorf("argv = %q, want the interpreter the shim selects", argv)
	}
	_, argv, err = lab.ParseCommand("service=/bin/true x")
	if err != nil || argv[0] != "/bin/true" {
		t.Errorf("argv = %q, %v: want /bin/true kept", argv, err)
	}
}
