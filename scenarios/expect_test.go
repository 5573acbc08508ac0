package scenarios_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// TestDeclaredOutcomes runs every expectation row of every scenario over
// many seeds and fails when what the simulator observed contradicts what
// the scenario declares ("=1", "dup", …). The outcome must emerge from the
// roles and the faults: nothing here knows the expected answers.
func TestDeclaredOutcomes(t *testing.T) {
	seeds := uint64(300)
	if testing.Short() {
		seeds = 60
	}
	for _, sc := range scenarios.All() {
		if len(sc.Expect) == 0 {
			t.Errorf("%s declares no expectations", sc.Name)
		}
		checkExpectations(t, sc, seeds, sc.Name)
	}
}

// TestDeclaredProofs proves the "all" claims of rows that ask for it by
// exhaustive search: no schedule within the bound breaks them.
func TestDeclaredProofs(t *testing.T) {
	for _, sc := range scenarios.All() {
		for i := range sc.Expect {
			e := &sc.Expect[i]
			if e.Explore == 0 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s", sc.Name, e.Label()), func(t *testing.T) {
				set := e.Settings(sc)
				set.Ops = sc.ExploreDefaults.Ops
				faults, _, err := scenarios.ExploreFaults(sc.ExploreDefaults.Faults)
				if err != nil {
					t.Fatal(err)
				}
				faults.Duration = set.Faults.Duration // the row's pause-ms, late-ms
				set.Faults = faults
				cfg, err := sc.Config(set)
				if err != nil {
					t.Fatal(err)
				}
				promise := proofPromise(e)
				res, err := search.Explore(cfg, search.Options{MaxFaults: e.Explore, MaxPreemptions: sc.ExploreDefaults.MaxPreemptions, Promise: promise})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Holds || !res.Complete {
					t.Errorf("exploration with ≤ %d faults: holds=%v complete=%v (%s) %s", e.Explore, res.Holds, res.Complete, res.Cut, res.Why)
				}
				t.Logf("%d states, %d schedules", res.States, res.Schedules)
			})
		}
	}
}

// TestEveryScenarioHasALesson: `once explain` has a story, what to watch,
// a why for every semantics, a fix and commands to try, for every
// scenario — and block text arrives without its YAML markers.
func TestEveryScenarioHasALesson(t *testing.T) {
	for _, sc := range scenarios.All() {
		l := sc.Lesson
		for field, text := range map[string]string{"story": l.Story, "watch": l.Watch, "fix": l.Fix} {
			if strings.TrimSpace(text) == "" {
				t.Errorf("%s: lesson.%s is empty", sc.Name, field)
			}
			if strings.HasPrefix(text, "|") || strings.HasPrefix(text, ">") {
				t.Errorf("%s: lesson.%s keeps its YAML block marker: %.20q", sc.Name, field, text)
			}
		}
		for _, sem := range sc.Semantics {
			if strings.TrimSpace(l.Why[sem]) == "" {
				t.Errorf("%s: lesson.why has nothing for %s", sc.Name, sem.Alias())
			}
		}
		if len(l.Try) == 0 {
			t.Errorf("%s: lesson.try lists no command", sc.Name)
		}
		if sc.Summary == "" {
			t.Errorf("%s: no summary", sc.Name)
		}
	}
}

// checkExpectations runs every expectation row of sc over seeds 1..seeds
// (each row a parallel subtest) and fails when a declared claim does not
// hold, or when a semantics has no row with the default parameters. name
// prefixes the messages.
func checkExpectations(t *testing.T, sc *scenarios.Scenario, seeds uint64, name string) {
	covered := map[sim.Semantics]bool{}
	for i := range sc.Expect {
		e := &sc.Expect[i]
		if len(e.Params) == 0 && e.Faults == nil {
			covered[e.Semantics] = true
		}
		t.Run(fmt.Sprintf("%s/%s", sc.Name, e.Label()), func(t *testing.T) {
			t.Parallel()
			set := e.Settings(sc)
			var tally scenarios.Tally
			for seed := uint64(1); seed <= seeds; seed++ {
				o, err := runs.Outcome(sc, set, sim.NewRandom(seed), nil)
				if err != nil {
					t.Fatal(err)
				}
				tally.Add(o)
			}
			if ok, claim := e.Held(&tally); !ok {
				t.Errorf("declared %q but claim %s failed over %d seeds: %+v", e.ClaimsString(), claim, seeds, tally)
			}
		})
	}
	for _, sem := range sc.Semantics {
		if !covered[sem] {
			t.Errorf("%s: no expectation for %s with the default parameters", name, sem.Alias())
		}
	}
}
