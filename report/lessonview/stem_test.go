package lessonview

import (
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

// TestStemsSayWhatBreaks: a breaks or fix question says what its search
// found broken. key-reuse-different-payload with reuse=overwrite charges
// every operation once and breaks an invariant (op-2's reused key had an
// effect): its fix question names the invariant and does not claim an
// operation ends otherwise than charged once — which a student's own run
// contradicted. double-billing's fix questions, where an operation is
// charged twice, keep the outcome stem; a fix question over a scenario
// with invariants asks for no failed check, not for every operation
// charged once (the fix there refuses op-2 as designed).
func TestStemsSayWhatBreaks(t *testing.T) {
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	defer lang.Set(lang.Current())
	lang.Set(lang.English)
	seen := map[string]bool{}
	for _, step := range []string{"keys-and-codes", "double-billing"} {
		i, err := c.StepIndex(step)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Steps[i].Bank {
			if s.Ask != lesson.AskFix {
				continue
			}
			one := *c
			st := c.Steps[i]
			st.Draw, st.Questions = 1, []lesson.Question{s}
			one.Steps = []lesson.Step{st}
			v, err := Build(&one, 0)
			if err != nil {
				t.Fatal(err)
			}
			text := v.Questions[0].Text
			seen[s.ID+"@"+step] = true
			switch {
			case s.ID == "fix-overwrite" && step == "keys-and-codes":
				if !strings.Contains(text, "invariant rejected-reuse") || strings.Contains(text, "does not always end") || strings.Contains(text, "every operation ends") {
					t.Errorf("%s/%s: %q, want the invariant it breaks and no outcome claim", step, s.ID, text)
				}
			case s.Run == "overwrite": // key-reuse-different-payload, which has invariants
				if strings.Contains(text, "every operation ends") {
					t.Errorf("%s/%s: %q claims every operation ends charged once; the fix refuses one", step, s.ID, text)
				}
			case step == "double-billing":
				if !strings.Contains(text, "does not always end charged once") || !strings.Contains(text, "every operation ends charged once") {
					t.Errorf("%s/%s: %q, want the outcome stem", step, s.ID, text)
				}
			}
		}
	}
	if !seen["fix-overwrite@keys-and-codes"] || len(seen) < 4 {
		t.Fatalf("fix questions seen: %v: the course changed; pick others", seen)
	}
}
