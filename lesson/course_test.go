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
	all, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	c := all.AllTracks()
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

// The core's steps come in the order of the course text (seeds/000: the
// four variants, why exactly-once is hard, what vendors mean by it, the
// idempotency patterns, the worked payment example), opened by the worked
// example's naive design as a teaser; the advanced track follows; their
// runs name catalog scenarios.
func TestCourseOrder(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		TrackCore: {"double-billing", "three-semantics", "two-generals", "kafka-eos", "upsert-natural-key", "increment-vs-set",
			"windowed-aggregate", "keys-and-codes", "durable-keys", "ttl-horizon"},
		TrackAdvanced: {"flink-2pc", "outbox", "reconciliation", "kafka-in-depth", "kafka-streams", "cdc-reemit", "leases-and-fencing", "key-contract",
			"methods-and-scope", "responses-in-progress", "key-store-operations", "telemetry-and-limits", "side-effects",
			"broker-dedup", "windows-and-horizons", "dedup-monitoring", "resource-id"},
	}
	for _, track := range []string{TrackCore, TrackAdvanced} {
		tc, err := c.Track(track)
		if err != nil {
			t.Fatal(err)
		}
		if tc.TrackName != track {
			t.Errorf("Track(%s) is named %q", track, tc.TrackName)
		}
		var got []string
		for _, s := range tc.Steps {
			got = append(got, s.ID)
			for _, r := range s.Runs {
				if _, err := scenarios.Lookup(r.Scenario); err != nil {
					t.Errorf("step %s: %v", s.ID, err)
				}
			}
		}
		if !slices.Equal(got, want[track]) {
			t.Errorf("track %s: steps %v, want %v", track, got, want[track])
		}
	}
	var parts []string
	for _, s := range c.Steps {
		if len(parts) == 0 || parts[len(parts)-1] != s.Part {
			parts = append(parts, s.Part)
		}
	}
	if w := []string{"teaser", "variants", "why-hard", "vendors", "patterns", "worked-example"}; !slices.Equal(parts, w) {
		t.Errorf("the core teaches the course text's parts %v, want %v (its order, none left out)", parts, w)
	}
	for _, track := range []string{"expert", ""} { // "" was taken as core
		if _, err := c.Track(track); err == nil {
			t.Errorf("--track %q accepted", track)
		}
	}
}

// Each track is one class: its steps' stated times add up to at most
// CoreMinutes (a 90-minute class less the opening and the wrap-up), and
// every step states one.
func TestTracksFitAClass(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, track := range []string{TrackCore, TrackAdvanced} {
		tc, _ := c.Track(track)
		if m := tc.Minutes(); m > CoreMinutes || m < CoreMinutes-10 {
			t.Errorf("track %s: the steps take %d minutes, want %d-%d", track, m, CoreMinutes-10, CoreMinutes)
		}
		for _, s := range tc.Steps {
			if s.Minutes < 3 || s.Minutes > 15 {
				t.Errorf("track %s step %s: %d minutes: want 3-15 (the story, three questions, the runs, the reveal)", track, s.ID, s.Minutes)
			}
		}
	}
}

// Every catalog scenario is taught by a step of one of the tracks.
func TestTracksCoverTheCatalog(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	taught := map[string]bool{}
	for _, s := range c.AllTracks().Steps {
		for _, r := range s.Runs {
			taught[r.Scenario] = true
		}
	}
	for _, sc := range scenarios.All() {
		if !taught[sc.Name] {
			t.Errorf("scenario %s is in no step of either track", sc.Name)
		}
	}
}

// Every student finds a seed of their own in every advanced step: its
// claims shown and its sheet answerable (the core's are checked by
// report/lessonview's TestThreeStudents).
func TestAdvancedStudentSeeds(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	adv, _ := c.Track(TrackAdvanced)
	for _, name := range []string{"ada", "bogdan", "chen", "dana", "emil"} {
		if _, err := adv.ForStudent(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A broken course is refused with the step and the field named.
func TestParseRefusesBrokenCourses(t *testing.T) {
	for _, tc := range []struct{ name, yaml string }{
		{"unknown scenario", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: nope, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"unknown run", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: x, semantics: alo, ask: count, class: many}]}]"},
		{"one operation", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1, ops: 1}], questions: [{id: q, run: r, semantics: alo, ask: first, class: many}]}]"},
		{"unknown class", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: red}]}]"},
		{"semantics not run", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1, semantics: [alo]}], questions: [{id: q, run: r, semantics: idem, ask: count, class: many}]}]"},
		{"unknown ask", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: colour}]}]"},
		{"unknown claim", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1, claims: {alo: maybe}}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"claim on a semantics not run", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1, semantics: [alo], claims: {idem: holds}}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"no question id", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{run: r, semantics: alo, ask: count, class: many}]}]"},
		{"repeated question id", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}, {id: q, run: r, semantics: alo, ask: faults}]}]"},
		{"draw more than the bank", "steps: [{id: a, draw: 2, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"breaks with three faults", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: amo, ask: breaks, faults: [loss, dup, slow]}]}]"},
		{"breaks with an unknown fault", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: amo, ask: breaks, faults: [loss, dup, slow, gremlins]}]}]"},
		{"fix with an unknown parameter", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: idem, ask: fix, sets: [store=durable, mark=before, timeout=5s, colour=red]}]}]"},
		{"set on an evidence question", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, set: {store: memory}, ask: count, class: many}]}]"},
		{"cause of a caught operation", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: cause, class: caught}]}]"},
		{"cut without cuts", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: two-generals, seed: 1}], questions: [{id: q, run: r, semantics: amo, ask: cut}]}]"},
		{"drop with too few messages", "steps: [{id: a, part: teaser, minutes: 5, runs: [{id: r, scenario: two-generals, seed: 1}], questions: [{id: q, run: r, semantics: amo, ask: drop, of: 1}]}]"},
		{"unknown field", "steps: [{id: a, colour: red}]"},
		{"no minutes", "steps: [{id: a, part: teaser, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"unknown part", "steps: [{id: a, part: epilogue, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
		{"parts out of order", "steps: [{id: a, part: patterns, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}, {id: b, part: variants, minutes: 5, runs: [{id: r, scenario: double-billing, seed: 1}], questions: [{id: q, run: r, semantics: alo, ask: count, class: many}]}]"},
	} {
		if _, err := Parse([]byte(tc.yaml)); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// A question no choice of which matches its run (a metric the run does
// not measure) has no answer: Answer says so instead of guessing.
func TestAnswerRefusesUnanswerable(t *testing.T) {
	c, err := Parse([]byte("steps: [{id: a, part: why-hard, minutes: 5, runs: [{id: r, scenario: two-generals, seed: 4}], questions: [{id: q, run: r, semantics: amo, ask: metric, name: no-such-metric}, {id: d, run: r, semantics: amo, ask: drop, of: 3}]}]"))
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
