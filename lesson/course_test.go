package lesson

import (
	"testing"

	"github.com/oncesim/once/scenarios"
)

// Every question of the course has exactly one right choice among at
// least three, computed from its run: the lesson cannot assert what the
// simulator does not do. The course's own seeds show every claim.
func TestEveryQuestionHasExactlyOneAnswer(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Steps {
		s := &c.Steps[i]
		if ok, err := s.ShowsClaims(); err != nil || !ok {
			t.Errorf("step %s: the course's seeds do not show its claims (%v)", s.ID, err)
		}
		results, err := ExecuteStep(s)
		if err != nil {
			t.Fatal(err)
		}
		for j := range s.Questions {
			q := &s.Questions[j]
			run, err := q.SemanticsRun(results)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			choices := q.ChoicesFor(results)
			for _, ch := range choices {
				if ch.Matches(run) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("step %s question %d (%s on %s under %s): %d choices match the run, want 1", s.ID, j+1, q.Ask, q.Run, q.Semantics, n)
			}
			if len(choices) < 3 {
				t.Errorf("step %s question %d: %d choices, want at least 3", s.ID, j+1, len(choices))
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
	// The Two Generals right after the delivery semantics (why
	// exactly-once delivery is impossible, before any fix); every
	// idempotency pattern of the course has its step.
	want := []string{"double-billing", "three-semantics", "two-generals", "keys-and-codes", "durable-keys", "ttl-horizon",
		"upsert-natural-key", "increment-vs-set", "windowed-aggregate", "outbox", "kafka-eos", "flink-2pc", "reconciliation"}
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
		{"unknown scenario", "steps: [{id: a, runs: [{id: r, scenario: nope, seed: 1}], questions: [{run: r, semantics: alo, ask: count, class: many}]}]"},
		{"unknown run", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{run: x, semantics: alo, ask: count, class: many}]}]"},
		{"one operation", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, ops: 1}], questions: [{run: r, semantics: alo, ask: first, class: many}]}]"},
		{"unknown class", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{run: r, semantics: alo, ask: count, class: red}]}]"},
		{"semantics not run", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, semantics: [alo]}], questions: [{run: r, semantics: idem, ask: count, class: many}]}]"},
		{"unknown ask", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{run: r, semantics: alo, ask: colour}]}]"},
		{"unknown claim", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, claims: {alo: maybe}}], questions: [{run: r, semantics: alo, ask: count, class: many}]}]"},
		{"claim on a semantics not run", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, semantics: [alo], claims: {idem: holds}}], questions: [{run: r, semantics: alo, ask: count, class: many}]}]"},
		{"drop with too few messages", "steps: [{id: a, runs: [{id: r, scenario: two-generals, seed: 1}], questions: [{run: r, semantics: amo, ask: drop, of: 1}]}]"},
		{"unknown field", "steps: [{id: a, colour: red}]"},
	} {
		if _, err := Parse([]byte(tc.yaml)); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// A question no choice of which matches its run (a metric the run does
// not measure) has no answer: Answer says so instead of guessing.
func TestAnswerRefusesUnanswerable(t *testing.T) {
	c, err := Parse([]byte("steps: [{id: a, runs: [{id: r, scenario: two-generals, seed: 4}], questions: [{run: r, semantics: amo, ask: metric, name: no-such-metric}, {run: r, semantics: amo, ask: drop, of: 3}]}]"))
	if err != nil {
		t.Fatal(err)
	}
	results, err := ExecuteStep(&c.Steps[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Steps[0].Questions[0].Answer(results); err == nil {
		t.Error("a question on a metric the run does not measure got an answer")
	}
	q := &c.Steps[0].Questions[1]
	if a, err := q.Answer(results); err != nil || q.ChoicesFor(results)[a].Key != "#3" {
		t.Errorf("two-generals at seed 4: answer %d, %v; want #3 (the second ack is lost, general-a attacks alone)", a, err)
	}
}

// A student's seed is the first at or after hash(name, step) whose rows
// show the step's claims: deterministic, different between students, and
// every claim shown.
func TestStudentSeeds(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.ForStudent("ada")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.ForStudent(" ada ")
	b, _ := c.ForStudent("bogdan")
	same := 0
	for i := range a.Steps {
		s := &a.Steps[i]
		if s.Student != "ada" || s.Runs[0].Seed < StudentSeed("ada", s.ID) {
			t.Errorf("step %s: student %q seed %d, want ada and a seed from %d", s.ID, s.Student, s.Runs[0].Seed, StudentSeed("ada", s.ID))
		}
		for _, r := range s.Runs {
			if r.Seed != s.Runs[0].Seed {
				t.Errorf("step %s: runs on different seeds", s.ID)
			}
		}
		if again.Steps[i].Runs[0].Seed != s.Runs[0].Seed {
			t.Errorf("step %s: ada's seed changed between two derivations", s.ID)
		}
		if b.Steps[i].Runs[0].Seed == s.Runs[0].Seed {
			same++
		}
		if ok, err := s.ShowsClaims(); err != nil || !ok {
			t.Errorf("step %s: ada's seed %d does not show the claims (%v)", s.ID, s.Runs[0].Seed, err)
		}
	}
	if same > 0 {
		t.Errorf("ada and bogdan share the seed of %d steps", same)
	}
	if _, err := c.ForStudent("  "); err == nil {
		t.Error("an empty student name was accepted")
	}
}
