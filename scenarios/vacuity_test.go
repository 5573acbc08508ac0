package scenarios_test

import (
	"strings"
	"testing"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// vacuitySeeds is how many seeds run a row with its protection switched
// off: as many as `once matrix` runs by default.
const vacuitySeeds = 200

// TestNoHoldsRowIsVacuous is issue 8's "expectations that bite": every
// catalog row that claims something of every run (=1, ≤1, ≥1, invariants)
// declares either the setting that switches its protecting mechanism off
// (`unprotected:`) or why it holds by the semantics alone (`inherent:`).
// Run with the switch off, the row must show the violation its claims
// rule out in a random run of the matrix's seeds, and a row proved by
// explore must also get the explorer's counterexample within its fault
// bound. A row that still holds would hold because nothing could break it.
func TestNoHoldsRowIsVacuous(t *testing.T) {
	for _, sc := range scenarios.All() {
		for i := range sc.Expect {
			e := &sc.Expect[i]
			if len(e.HoldsClaims()) == 0 {
				continue
			}
			t.Run(sc.Name+"/"+e.Label(), func(t *testing.T) {
				switch {
				case e.Unprotected != nil && e.Inherent != "":
					t.Fatalf("row %q declares both unprotected (%s) and inherent (%s): keep one", e.Label(), e.Unprotected, e.Inherent)
				case e.Inherent != "":
					return
				case e.Unprotected == nil:
					t.Fatalf("row %q (%s) declares neither the switch of its protection (unprotected: {…}) nor why it holds by itself (inherent: \"…\")",
						e.Label(), e.ClaimsString())
				}
				set, _, err := e.UnprotectedSettings(sc)
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := sc.Config(set)
				if err != nil {
					t.Fatal(err)
				}
				tally := batch.Run([]*sim.Config{cfg}, vacuitySeeds, 1, nil)[0]
				broken := scenarios.Claim(0)
				for _, c := range e.HoldsClaims() {
					if tally.JudgeClaim(c) == batch.Failed {
						broken = c
						break
					}
				}
				if broken == 0 {
					t.Errorf("%s %s with %s still holds %s in %d seeds (%d finished): the row does not depend on that switch",
						sc.Name, e.Label(), e.Unprotected, e.ClaimsString(), tally.Runs, tally.Finished)
				} else {
					t.Logf("%s breaks %s (first at seed %d of %d)", e.Unprotected, broken, tally.Witness(broken), tally.Runs)
				}
				// A proof is vacuous too if its search could not have
				// found anything: the same search, unprotected, must find
				// a counterexample within the row's fault bound.
				if e.Explore > 0 && !exploreBreaks(t, sc, e, set) {
					t.Errorf("%s %s with %s: explore with ≤ %d faults finds no counterexample: the proof does not depend on that switch",
						sc.Name, e.Label(), e.Unprotected, e.Explore)
				}
			})
		}
	}
}

// exploreBreaks searches the unprotected row as the proof of the protected
// one searches it (the scenario's explore fault kinds, ops and bound), and
// reports whether it finds a counterexample.
func exploreBreaks(t *testing.T, sc *scenarios.Scenario, e *scenarios.Expectation, set scenarios.Settings) bool {
	t.Helper()
	faults, _, err := scenarios.ExploreFaults(sc.ExploreDefaults.Faults)
	if err != nil {
		t.Fatal(err)
	}
	faults.Duration = set.Faults.Duration // the row's pause-ms, late-ms
	for k, v := range e.Unprotected.Faults {
		// A switch that turns a fault kind on offers it to the search.
		if _, isKind := sim.ParseFaultKind(k); isKind && v != "0" {
			if err := faults.Set(k, "0.5"); err != nil {
				t.Fatal(err)
			}
		}
	}
	set.Ops, set.Faults = sc.ExploreDefaults.Ops, faults
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	res, err := search.Explore(cfg, search.Options{MaxFaults: e.Explore, Promise: proofPromise(e), MaxPreemptions: sc.ExploreDefaults.MaxPreemptions})
	if err != nil {
		t.Fatal(err)
	}
	return !res.Holds
}

// TestEveryScenarioShowsFailureAndFix is issue 8's "done when": every
// scenario of the catalog has a row that shows its lesson's failure
// (dup, lost or violation) and a row where a fix holds — a row whose
// every-run claims rest on a mechanism it names (unprotected:).
func TestEveryScenarioShowsFailureAndFix(t *testing.T) {
	for _, sc := range scenarios.All() {
		var failure, fix bool
		for i := range sc.Expect {
			e := &sc.Expect[i]
			failure = failure || e.ShowsFailure()
			fix = fix || e.Unprotected != nil
		}
		var missing []string
		if !failure {
			missing = append(missing, "a failure row (show: dup, lost or violation)")
		}
		if !fix {
			missing = append(missing, "a fix row (a holds row with unprotected: …)")
		}
		if len(missing) > 0 {
			t.Errorf("%s lacks %s", sc.Name, strings.Join(missing, " and "))
		}
	}
}
