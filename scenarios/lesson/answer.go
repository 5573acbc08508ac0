package lesson

import (
	"fmt"

	"github.com/oncesim/once/sim"
)

// A Choice is one answer a question offers. Key names it for the texts
// ("none", "once", "many", "kept", "broken", "held", "violated", "equals-zero",
// "above-zero"); Matches says whether a run's outcome is that answer.
type Choice struct {
	Key     string
	Matches func(o *sim.Outcome) bool
}

// Choices are the answers q offers, in the order they are shown. They are
// meant to be exclusive and to cover every outcome: the course's test
// checks that exactly one matches each question's run.
func (q *Question) Choices() []Choice {
	switch q.Ask {
	case AskEffects:
		effects := func(o *sim.Outcome) int32 {
			for _, op := range o.Ops {
				if int(op.Op) == q.Op {
					return op.Effects
				}
			}
			return -1
		}
		return []Choice{
			{"none", func(o *sim.Outcome) bool { return effects(o) == 0 }},
			{"once", func(o *sim.Outcome) bool { return effects(o) == 1 }},
			{"many", func(o *sim.Outcome) bool { return effects(o) >= 2 }},
		}
	case AskPromise:
		return []Choice{
			{"kept", func(o *sim.Outcome) bool { return o.Status == sim.Held }},
			{"broken", func(o *sim.Outcome) bool { return o.Status == sim.Violated }},
		}
	case AskInvariant:
		held := func(o *sim.Outcome) (bool, bool) {
			for _, inv := range o.Invariants {
				if inv.Name == q.Name {
					return inv.Violation == "", true
				}
			}
			return false, false
		}
		return []Choice{
			{"held", func(o *sim.Outcome) bool { h, ok := held(o); return ok && h }},
			{"violated", func(o *sim.Outcome) bool { h, ok := held(o); return ok && !h }},
		}
	case AskMetric:
		value := func(o *sim.Outcome) (float64, bool) {
			for _, m := range o.Metrics {
				if m.Name == q.Name {
					return m.Value, true
				}
			}
			return 0, false
		}
		return []Choice{
			{"equals-zero", func(o *sim.Outcome) bool { v, ok := value(o); return ok && v == 0 }},
			{"above-zero", func(o *sim.Outcome) bool { v, ok := value(o); return ok && v > 0 }},
		}
	}
	return nil
}

// Outcome is the outcome q asks about, from the step's results.
func (q *Question) Outcome(results map[string]*Result) (*sim.Outcome, error) {
	r := results[q.Run]
	if r == nil {
		return nil, fmt.Errorf("lesson: question on run %q: not run", q.Run)
	}
	sem, err := sim.ParseSemantics(q.Semantics)
	if err != nil {
		return nil, fmt.Errorf("lesson: %w", err)
	}
	run := r.Of(sem)
	if run == nil {
		return nil, fmt.Errorf("lesson: run %s has no %s", q.Run, sem)
	}
	return run.Outcome, nil
}

// Answer is the index of q's right choice, computed from the run it asks
// about; an error when not exactly one choice matches (a broken course).
func (q *Question) Answer(results map[string]*Result) (int, error) {
	o, err := q.Outcome(results)
	if err != nil {
		return 0, err
	}
	answer := -1
	for i, c := range q.Choices() {
		if c.Matches(o) {
			if answer >= 0 {
				return 0, fmt.Errorf("lesson: question on %s: choices %d and %d both match", q.Run, answer+1, i+1)
			}
			answer = i
		}
	}
	if answer < 0 {
		return 0, fmt.Errorf("lesson: question on %s under %s: no choice matches the run", q.Run, q.Semantics)
	}
	return answer, nil
}
