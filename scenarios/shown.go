package scenarios

import (
	"maps"
	"slices"

	"github.com/oncesim/once/internal/termtext"
)

// Shown is the scenario as text and TUI output print it: every text it
// loaded from its file (the summary, the lesson, the outcome words, the
// parameters' docs, the rows' notes, the sweep's labels) with its control
// characters escaped (termtext.Escape), so that a BEL or an escape
// sequence written in a scenario file ("\a", "\e]0;title\a") shows as
// text instead of acting on the terminal. It is a shallow copy where a
// text changes, and s itself where none does (every catalog scenario):
// the simulation does not read these texts. JSON output takes s as loaded
// (its encoder escapes control characters).
func (s *Scenario) Shown() *Scenario {
	if s == nil {
		return nil
	}
	c := *s
	e := termtext.Escape
	c.Summary = e(s.Summary)
	c.Params = slices.Clone(s.Params)
	for i := range c.Params {
		c.Params[i].Doc = e(c.Params[i].Doc)
	}
	c.Expect = slices.Clone(s.Expect)
	for i := range c.Expect {
		c.Expect[i].Note = e(c.Expect[i].Note)
		c.Expect[i].Inherent = e(c.Expect[i].Inherent)
		c.Expect[i].RateBound = e(c.Expect[i].RateBound)
	}
	c.Lesson.Story, c.Lesson.Watch, c.Lesson.Fix = e(s.Lesson.Story), e(s.Lesson.Watch), e(s.Lesson.Fix)
	c.Lesson.Why = maps.Clone(s.Lesson.Why)
	for sem, why := range c.Lesson.Why {
		c.Lesson.Why[sem] = e(why)
	}
	c.Lesson.Try = slices.Clone(s.Lesson.Try)
	for i := range c.Lesson.Try {
		c.Lesson.Try[i] = e(c.Lesson.Try[i])
	}
	c.Outcome = s.Outcome // every field, texts escaped below (a field left out made every scenario that sets it a copy)
	c.Outcome.None, c.Outcome.Once, c.Outcome.Many, c.Outcome.Partial = e(s.Outcome.None), e(s.Outcome.Once), e(s.Outcome.Many), e(s.Outcome.Partial)
	c.Outcome.Party = e(s.Outcome.Party)
	c.Sweep.Marks = slices.Clone(s.Sweep.Marks)
	for i := range c.Sweep.Marks {
		c.Sweep.Marks[i].Label = e(c.Sweep.Marks[i].Label)
	}
	if s.Sweep.Rate != nil {
		r := *s.Sweep.Rate
		r.Name, r.VersusName = e(r.Name), e(r.VersusName)
		c.Sweep.Rate = &r
	}
	c.ExploreDefaults.Faults = e(s.ExploreDefaults.Faults)
	if textsDiffer(&c, s) {
		return &c
	}
	return s
}

// textsDiffer reports whether Shown escaped any text of s into c.
func textsDiffer(c, s *Scenario) bool {
	if c.Summary != s.Summary || c.Lesson.Story != s.Lesson.Story || c.Lesson.Watch != s.Lesson.Watch ||
		c.Lesson.Fix != s.Lesson.Fix || c.Outcome != s.Outcome || c.ExploreDefaults.Faults != s.ExploreDefaults.Faults ||
		!slices.Equal(c.Lesson.Try, s.Lesson.Try) || !maps.Equal(c.Lesson.Why, s.Lesson.Why) {
		return true
	}
	if s.Sweep.Rate != nil && *c.Sweep.Rate != *s.Sweep.Rate {
		return true
	}
	for i := range s.Params {
		if c.Params[i].Doc != s.Params[i].Doc {
			return true
		}
	}
	for i := range s.Expect {
		if c.Expect[i].Note != s.Expect[i].Note || c.Expect[i].Inherent != s.Expect[i].Inherent || c.Expect[i].RateBound != s.Expect[i].RateBound {
			return true
		}
	}
	for i := range s.Sweep.Marks {
		if c.Sweep.Marks[i].Label != s.Sweep.Marks[i].Label {
			return true
		}
	}
	return false
}

// ShownAs is the scenario as output in format prints it: Shown, except
// in JSON, which keeps the texts as loaded (as JSON escapes).
func (s *Scenario) ShownAs(format string) *Scenario {
	if format == "json" {
		return s
	}
	return s.Shown()
}
