package lesson

import (
	"testing"

	"github.com/oncesim/once/scenarios"
)

// Every question of the course has exactly one right choice, computed
// from its run: the lesson cannot assert what the simulator does not do.
func TestEveryQuestionHasExactlyOneAnswer(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Steps {
		s := &c.Steps[i]
		results, err := ExecuteStep(s)
		if err != nil {
			t.Fatal(err)
		}
		for j := range s.Questions {
			q := &s.Questions[j]
			o, err := q.Outcome(results)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, ch := range q.Choices() {
				if ch.Matches(o) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("step %s question %d (%s on %s under %s): %d choices match the run, want 1", s.ID, j+1, q.Ask, q.Run, q.Semantics, n)
			}
			if _, err := q.Answer(results); err != nil && n == 1 {
				t.Errorf("step %s question %d: %v", s.ID, j+1, err)
			}
		}
	}
}

// The steps come in the course's order, and their runs name catalog
// scenarios.
func TestCourseOrder(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"double-billing", "three-semantics", "keys-and-codes", "durable-keys", "ttl-horizon",
		"outbox", "kafka-eos", "flink-2pc", "reconciliation", "two-generals"}
	if len(c.Steps) != len(want) {
		t.Fatalf("%d steps, want %d", len(c.Steps), len(want))
	}
	for i, s := range c.Steps {
		if s.ID != want[i] {
			t.Errorf("step %d is %s, want %s", i+1, s.ID, want[i])
		}
		for _, r := range s.Runs {
			if _, err := scenarios.Lookup(r.Scenario); err != nil {
				t.Errorf("step %s: %v", s.ID, err)
			}
		}
	}
}

// A broken course is refused with the step and the field named.
func TestParseRefusesBrokenCourses(t *testing.T) {
	for _, tc := range []struct{ name, yaml string }{
		{"unknown scenario", "steps: [{id: a, runs: [{id: r, scenario: nope, seed: 1}], questions: [{run: r, semantics: alo, ask: promise}]}]"},
		{"unknown run", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{run: x, semantics: alo, ask: promise}]}]"},
		{"op out of range", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, ops: 2}], questions: [{run: r, semantics: alo, ask: effects, op: 3}]}]"},
		{"semantics not run", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, semantics: [alo]}], questions: [{run: r, semantics: idem, ask: promise}]}]"},
		{"unknown ask", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{run: r, semantics: alo, ask: colour}]}]"},
		{"unknown field", "steps: [{id: a, colour: red}]"},
	} {
		if _, err := Parse([]byte(tc.yaml)); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// A question no choice of which matches its run (an invariant the run
// does not check) has no answer: Answer says so instead of guessing.
func TestAnswerRefusesUnanswerable(t *testing.T) {
	c, err := Parse([]byte("steps: [{id: a, runs: [{id: r, scenario: two-generals, seed: 4}], questions: [{run: r, semantics: amo, ask: invariant, name: no-such-invariant}, {run: r, semantics: amo, ask: invariant, name: agreement}]}]"))
	if err != nil {
		t.Fatal(err)
	}
	results, err := ExecuteStep(&c.Steps[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Steps[0].Questions[0].Answer(results); err == nil {
		t.Error("a question on an invariant the run does not check got an answer")
	}
	if a, err := c.Steps[0].Questions[1].Answer(results); err != nil || c.Steps[0].Questions[1].Choices()[a].Key != "violated" {
		t.Errorf("agreement at seed 4: answer %d, %v; want violated (a general attacks alone)", a, err)
	}
}
