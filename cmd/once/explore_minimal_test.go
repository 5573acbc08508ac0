package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
)

// TestExploreCounterexampleHasTheFewestFaults: flink-2pc-sink under
// at-least-once is first found with slow + slow + crash, and the shrinker
// keeps all three (each is needed on that path); the search of the
// smaller budgets finds the one-crash schedule, and says it is minimal
// because the budget of 0 faults was searched to its end.
func TestExploreCounterexampleHasTheFewestFaults(t *testing.T) {
	out, _ := runCLI(t, exitOK, "explore", "flink-2pc-sink", "--semantics", "alo", "--timing=false", "--format", "json")
	var doc report.ExploreDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Counterexample
	if c == nil || len(c.Faults) != 1 || !strings.HasPrefix(c.Faults[0], "crash ") {
		t.Fatalf("want a one-crash counterexample, got %+v", c)
	}
	if c.Minimal == nil || !c.Minimal.Proved || c.Minimal.CompleteBelow != 1 {
		t.Fatalf("want minimal proved below 1 fault, got %+v", c.Minimal)
	}
	if !strings.Contains(c.Replay, "--max-faults 1 ") {
		t.Errorf("the replay line does not name the search that found the one-fault schedule: %q", c.Replay)
	}
	text, _ := runCLI(t, exitOK, "explore", "flink-2pc-sink", "--semantics", "alo", "--timing=false")
	if !strings.Contains(text, "minimal: no schedule with fewer faults violates") {
		t.Errorf("the text report does not say the counterexample is minimal:\n%s", text)
	}
}

// TestExploreMinimalSaysHowFarItLooked: when a smaller budget's search
// was cut, the report does not claim minimality but says how far it
// looked and why it stopped.
func TestExploreMinimalSaysHowFarItLooked(t *testing.T) {
	doc := report.ExploreDoc{Scenario: "s", Semantics: "alo", MaxFaults: 3, Faults: []string{"slow", "crash"},
		Counterexample: &report.Counterexample{Cause: "op-1 has 2 effects", Faults: []string{"slow a", "crash b"}, FoundFaults: 2,
			Minimal: &report.Minimality{CompleteBelow: 1, Cut: "state budget of 150 exhausted"}}}
	var b strings.Builder
	if err := report.WriteExploreText(&b, doc); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "minimal: no schedule") || !strings.Contains(out, "not known to be minimal: every schedule with fewer than 1 faults keeps the property; the search with 1 faults was cut") {
		t.Errorf("the report claims too much or says nothing of how far it looked:\n%s", out)
	}
}
