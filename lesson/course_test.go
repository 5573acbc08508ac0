package lesson

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oncesim/once/scenarios"
)

// Every question of the course's own sheets, and every mechanism
// question of the bank (its answer is the same for every seed), has
// exactly one right choice among at least four, computed from its run or
// proved by its searches: the lesson cannot assert what the simulator
// does not do. The course's own seeds show every claim. (The evidence
// questions of the bank are answered on 20 students' sheets by
// report/lessonview's TestThreeStudents.)
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
		questions := slices.Clone(s.Questions)
		for _, q := range s.Bank {
			if q.Mechanism() && !slices.ContainsFunc(questions, func(o Question) bool { return o.ID == q.ID }) {
				questions = append(questions, q)
			}
		}
		for j := range questions {
			q := &questions[j]
			if err := q.prepare(); err != nil {
				t.Fatal(err)
			}
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
				t.Errorf("step %s question %s (%s on %s under %s): %d choices match, want 1", s.ID, q.ID, q.Ask, q.Run, q.Semantics, n)
			}
			if len(choices) < minChoices {
				t.Errorf("step %s question %s: %d choices, want at least %d", s.ID, q.ID, len(choices), minChoices)
			}
			if _, err := q.Answer(results); err != nil && n == 1 {
				t.Errorf("step %s question %s: %v", s.ID, q.ID, err)
			}
		}
	}
}

// A sheet draws Draw questions of its step's bank, two in three of them
// mechanism questions, the same for the same seed; another seed draws
// another sheet, and shuffles an unordered question's choices otherwise.
func TestDrawSheets(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	s := c.Step("double-billing")
	ids := func(sheet []Question) (out []string) {
		for _, q := range sheet {
			out = append(out, q.ID)
		}
		return out
	}
	a, again := s.draw(7), s.draw(7)
	if !slices.Equal(ids(a), ids(again)) || len(a) != s.Draw {
		t.Fatalf("draw(7) = %v then %v, want the same %d questions", ids(a), ids(again), s.Draw)
	}
	mechanisms := 0
	for _, q := range a {
		if q.Mechanism() {
			mechanisms++
		}
	}
	if mechanisms != 2 {
		t.Errorf("draw(7) = %v: %d mechanism questions, want 2 of 3", ids(a), mechanisms)
	}
	differ := 0
	for seed := uint64(1); seed <= 20; seed++ {
		if !slices.Equal(ids(s.draw(seed)), ids(a)) {
			differ++
		}
	}
	if differ < 10 {
		t.Errorf("only %d of 20 seeds draw another sheet than seed 7's", differ)
	}
	orders := map[string]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		for _, q := range s.draw(seed) {
			if q.unordered() {
				orders[fmt.Sprint(q.ID, q.permutation(4))] = true
			}
		}
	}
	if len(orders) < 8 {
		t.Errorf("unordered questions were shown in %d orders over 20 seeds: the choices are not shuffled", len(orders))
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
		{"unknown scenario", "steps: [{id: a, runs: [{id: r, scenario: nope, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"unknown run", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: x, semantics: alo, ask: count, class: many}]}]"},
		{"one operation", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, ops: 1}], questions: [{id: q, run: r, semantics: alo, ask: first, class: many}]}]"},
		{"unknown class", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: red}]}]"},
		{"semantics not run", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, semantics: [alo]}], questions: [{id: q, run: r, semantics: idem, ask: count, class: many}]}]"},
		{"unknown ask", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: colour}]}]"},
		{"unknown claim", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, claims: {alo: maybe}}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"claim on a semantics not run", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1, semantics: [alo], claims: {idem: holds}}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"no question id", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{run: r, semantics: alo, ask: count, class: many}]}]"},
		{"repeated question id", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}, {id: q, run: r, semantics: alo, ask: faults}]}]"},
		{"draw more than the bank", "steps: [{id: a, draw: 2, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"breaks with three faults", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: amo, ask: breaks, faults: [loss, dup, slow]}]}]"},
		{"breaks with an unknown fault", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: amo, ask: breaks, faults: [loss, dup, slow, gremlins]}]}]"},
		{"fix with an unknown parameter", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: idem, ask: fix, sets: [store=durable, mark=before, timeout=5s, colour=red]}]}]"},
		{"set on an evidence question", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, set: {store: memory}, ask: count, class: many}]}]"},
		{"cause of a caught operation", "steps: [{id: a, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: cause, class: caught}]}]"},
		{"cut without cuts", "steps: [{id: a, runs: [{id: r, scenario: two-generals, seed: 1}], questions: [{id: q, run: r, semantics: amo, ask: cut}]}]"},
		{"drop with too few messages", "steps: [{id: a, runs: [{id: r, scenario: two-generals, seed: 1}], questions: [{id: q, run: r, semantics: amo, ask: drop, of: 1}]}]"},
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
	c, err := Parse([]byte("steps: [{id: a, runs: [{id: r, scenario: two-generals, seed: 4}], questions: [{id: q, run: r, semantics: amo, ask: metric, name: no-such-metric}, {id: d, run: r, semantics: amo, ask: drop, of: 3}]}]"))
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
