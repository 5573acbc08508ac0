package lesson

import (
	"testing"

	"github.com/oncesim/once/sim"
)

// TestEveryShownRowKeepsItsLesson: for 20 of 20 student ids, every row
// the steps double-billing and three-semantics show (by id: the steps
// may move) shows what it is there for — at-most-once loses at least one
// payment, at-least-once charges some operation more than once, the
// idempotent fix takes every operation once with nothing violated — not
// only the rows a question asks about.
func TestEveryShownRowKeepsItsLesson(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	lessons := map[sim.Semantics]func(o *sim.Outcome) bool{
		sim.AtMostOnce:  func(o *sim.Outcome) bool { return Count(o, ClassNone) > 0 },
		sim.AtLeastOnce: func(o *sim.Outcome) bool { return Count(o, ClassMany) > 0 },
		sim.Idempotent:  RowHolds,
	}
	for _, step := range []string{"double-billing", "three-semantics"} {
		i, err := c.StepIndex(step)
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		forEachStudent(t, c, i, func(id string, _ *Step, results map[string]*Result) {
			ok := true
			for _, r := range results {
				for _, run := range r.Runs {
					o := run.Outcome
					keeps, known := lessons[o.Semantics]
					if !known || !keeps(o) {
						ok = false
						t.Errorf("%s, %s (seed %d): the %s row of %s does not show its lesson", step, id, r.Spec.Seed, o.Semantics, r.Spec.ID)
					}
				}
			}
			if ok {
				kept++
			}
		})
		t.Logf("%s: %d of 20 student ids see every row keep its lesson", step, kept)
	}
}
