package lab_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

func TestCommandLinesRepeatTheNodesAndSettings(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	c := lab.Command{Nodes: []string{"service=./svc --fast"}, Twice: true, Replicas: 2}
	set := scenarios.Settings{Ops: 3, Faults: sc.Faults, Params: map[string]string{"store": "memory"}}
	got := c.Line(sc, sim.Idempotent, 7, set)
	want := `once lab double-billing --node "service=./svc --fast" --semantics idem --seed 7 --ops 3 --twice --replicas 2 --set store=memory`
	if got != want {
		t.Errorf("Line =\n %s\nwant\n %s", got, want)
	}
	if got, want := c.ReplayLine("p.plan"), `once lab --node "service=./svc --fast" --twice --replicas 2 --replay p.plan`; got != want {
		t.Errorf("ReplayLine = %s, want %s", got, want)
	}
	if got := lab.NodeNames([]string{"service=./a b", "consumer=x"}); strings.Join(got, ",") != "service,consumer" {
		t.Errorf("NodeNames = %v", got)
	}
}

func TestWriteStderrTailShowsTheFailingIncarnation(t *testing.T) {
	var w bytes.Buffer
	err := &lab.Error{Node: "service", Incarnation: 2, Err: errors.New("exit 1"), Stderr: []byte("Traceback: boom")}
	lab.WriteStderrTail(&w, err, false)
	if want := "--- the last 15 bytes service (incarnation 2) wrote on stderr ---\nTraceback: boom\n"; w.String() != want {
		t.Errorf("tail = %q, want %q", w.String(), want)
	}
	w.Reset()
	lab.WriteStderrTail(&w, err, true) // --logs showed it already
	lab.WriteStderrTail(&w, errors.New("not a node's"), false)
	if w.Len() != 0 {
		t.Errorf("want nothing, got %q", w.String())
	}
}

// A naive consumer that claims idempotence: the search finds a duplicate, and
// the report shrinks it and says how to find it again.
func TestWriteExploreReportsAShrunkCounterexample(t *testing.T) {
	bin := labtest.BuildGo(t, "naive_consumer")
	l := newLab(t, "at-least-once-duplicate", "consumer", []string{bin}, nil)
	l.Settings.Ops = 2
	faults, kinds, err := l.Scenario.ExploreFaults(l.Scenario.ExploreDefaults.Faults)
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = faults
	judge := l.JudgeFor(sim.Idempotent)
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, MaxSchedules: 200, Judge: &judge})
	if err != nil {
		t.Fatal(err)
	}
	set := l.Settings
	set.Semantics = sim.Idempotent
	var w bytes.Buffer
	rep := lab.ExploreReport{Scenario: l.Scenario, Semantics: sim.Idempotent, Settings: set, Seed: 1, MaxFaults: 1,
		Faults: l.Scenario.ExploreDefaults.Faults, Kinds: kinds, Command: lab.Command{Nodes: []string{"consumer=" + bin}}, Judge: judge}
	if err := l.WriteExplore(&w, rep, res); err != nil {
		t.Fatal(err)
	}
	out := w.String()
	for _, want := range []string{"at-least-once-duplicate under ", "judged against ", "explored "} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if res.Holds {
		t.Fatalf("a naive consumer kept its promise:\n%s", out)
	}
	for _, want := range []string{"COUNTEREXAMPLE: ", "faults (shrunk from ", "\nreplay: once lab at-least-once-duplicate --node ", " --explore --max-faults 1 --faults "} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestProgressLineEndsOnlyWhatItDrew(t *testing.T) {
	var w bytes.Buffer
	draw, end := lab.ProgressLine(&w)
	end()
	if w.Len() != 0 {
		t.Fatalf("an undrawn line was cleared: %q", w.String())
	}
	draw(lab.ExploreStats{Schedules: 4, Faults: 1, Steps: 9})
	end()
	if got := w.String(); !strings.HasPrefix(got, "\r\033[Kexploring: 4 schedules · now those with 1 fault(s) · 9 node steps · ") || !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("progress line = %q", got)
	}
	draw, end = lab.ProgressLine(nil)
	draw(lab.ExploreStats{})
	end() // nothing drawn, no panic
}
