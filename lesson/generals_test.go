package lesson

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// studentIDs are the 20 student ids the issue-30 checks run over.
func studentIDs() []string {
	var out []string
	for i := 1; i <= 20; i++ {
		out = append(out, fmt.Sprintf("student-%02d", i))
	}
	return out
}

// forEachStudent runs step i of c as each of the 20 student ids gets it
// and hands f the student's step and its results.
func forEachStudent(t *testing.T, c *Course, i int, f func(id string, s *Step, results map[string]*Result)) {
	t.Helper()
	for _, id := range studentIDs() {
		s, err := c.StepForStudent(i, id)
		if err != nil {
			t.Fatal(err)
		}
		results, err := ExecuteStep(s)
		if err != nil {
			t.Fatal(err)
		}
		f(id, s, results)
	}
}

// TestTwoGeneralsAlwaysShowsASplit: for 20 of 20 student ids the Two
// Generals step shows a run where one general attacks alone (the
// agreement invariant violated, one general's attack and not the
// other's), and agreement holding — nobody attacked, or both — is never
// the row's failure; the step's cuts prove, by exhaustive search, that
// with N = 1…6 messages losing the last one still splits them.
func TestTwoGeneralsAlwaysShowsASplit(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	i, err := c.StepIndex("two-generals")
	if err != nil {
		t.Fatal(err)
	}
	alone := 0
	forEachStudent(t, c, i, func(id string, s *Step, results map[string]*Result) {
		split := false
		for _, r := range results {
			for _, run := range r.Runs {
				o := run.Outcome
				for _, op := range o.Ops {
					if op.Class() == sim.OpPartial && RowViolated(o) {
						split = true
					}
				}
			}
		}
		if split {
			alone++
		} else {
			t.Errorf("%s (seed %d): no run shows one general attacking alone", id, s.Runs[0].Seed)
		}
	})
	t.Logf("%d of 20 student ids see one general attack alone", alone)

	st := &c.Steps[i]
	if st.Cuts == nil {
		t.Fatal("the two-generals step has no cuts")
	}
	cuts, err := st.Cuts.Explore()
	if err != nil {
		t.Fatal(err)
	}
	if len(cuts) != 6 {
		t.Fatalf("%d cuts, want N = 1…6", len(cuts))
	}
	for _, cut := range cuts {
		last := fmt.Sprintf("#%d lost", cut.N)
		if cut.Holds || cut.Faults != 1 || !strings.Contains(cut.Cause, "attacks alone") || !strings.Contains(cut.Cause, last) {
			t.Errorf("N = %d: holds=%v faults=%d cause %q: want a 1-fault split at the last message (%s)", cut.N, cut.Holds, cut.Faults, cut.Cause, last)
		}
	}
}

// Every sheet of the Two Generals step asks why no number of messages
// lets the generals agree (cut-why, marked always): the step's point.
// Drawn like the rest, 28 sheets of seeds 1…60 missed it and asked instead
// the same "which single fault" question twice (N=3 and N=6).
func TestEverySheetAsksTheGeneralsCut(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	s := c.Step("two-generals")
	for seed := uint64(1); seed <= 60; seed++ {
		sheet := s.draw(seed)
		var ids []string
		mechanisms, cut := 0, false
		for _, q := range sheet {
			ids = append(ids, q.ID)
			cut = cut || q.ID == "cut-why"
			if q.Mechanism() {
				mechanisms++
			}
		}
		if !cut || len(sheet) != s.Draw || mechanisms != 2 {
			t.Errorf("draw(%d) = %v: want %d questions, 2 of them mechanism ones, cut-why among them", seed, ids, s.Draw)
		}
	}
}
