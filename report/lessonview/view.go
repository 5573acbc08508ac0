// Package lessonview renders the guided lesson (scenarios/lesson) in the
// current language: each step's title, stories, commands, questions with
// their choices, and the reveal — the outcome, a text diagram of what the
// question asked about, the right answer (computed from the run) and the
// scenario's why. The line quiz, the TUI and the lesson pack all show the
// same StepView, so they cannot tell different stories.
package lessonview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/lesson"
	"github.com/oncesim/once/sim"
)

// A StepView is one step of the lesson, ready to show.
type StepView struct {
	Number, Total int    // 1-based position in the course, and its length
	ID, Title     string // the step's id and its title in the current language
	Stories       []Story
	Runs          []RunView
	Questions     []QuestionView
	Results       map[string]*lesson.Result // by run id: the pack draws its diagrams from them
}

// A Story is one scenario's lesson text the step tells before asking.
type Story struct {
	Scenario, Summary, Story, Watch string
}

// A RunView is one run of the step: the command that repeats it, and one
// outcome line per semantics.
type RunView struct {
	ID, Command string
	Lines       []string // "at-least-once: 2 charged once ✓ · 1 charged twice ✗ · its own promise: kept (≥1)"
}

// A QuestionView is one prediction: its wording, its choices, the right
// one (computed from the run) and what the reveal shows.
type QuestionView struct {
	Text      string
	Choices   []string
	Answer    int    // index into Choices
	Run       string // the run id it asks about
	Semantics sim.Semantics
	Diagram   string // the text trace of what it asks about (see revealEvents)
	Why       string // the scenario's why for the semantics
}

// Build runs step i of c and renders it. The runs are deterministic:
// the same course gives the same StepView.
func Build(c *lesson.Course, i int) (*StepView, error) {
	s := &c.Steps[i]
	results, err := lesson.ExecuteStep(s)
	if err != nil {
		return nil, err
	}
	v := &StepView{Number: i + 1, Total: len(c.Steps), ID: s.ID, Title: lang.T("lesson.step." + s.ID), Results: results}
	var told []string
	for j := range s.Runs {
		r := results[s.Runs[j].ID]
		sc := r.Scenario
		if !slices.Contains(told, sc.Name) {
			told = append(told, sc.Name)
			v.Stories = append(v.Stories, Story{Scenario: sc.Name,
				Summary: lang.Lesson(sc.Name, "summary", sc.Summary),
				Story:   strings.TrimSpace(lang.Lesson(sc.Name, "story", sc.Lesson.Story)),
				Watch:   strings.TrimSpace(lang.Lesson(sc.Name, "watch", sc.Lesson.Watch))})
		}
		rv := RunView{ID: r.Spec.ID, Command: Command(r)}
		for _, sr := range r.Runs {
			rv.Lines = append(rv.Lines, OutcomeLine(sc, sr.Outcome))
		}
		v.Runs = append(v.Runs, rv)
	}
	for j := range s.Questions {
		q := &s.Questions[j]
		answer, err := q.Answer(results)
		if err != nil {
			return nil, fmt.Errorf("step %s: %w", s.ID, err)
		}
		r := results[q.Run]
		sem, _ := sim.ParseSemantics(q.Semantics)
		run := r.Of(sem)
		qv := QuestionView{Text: questionText(q, r, sem), Choices: choiceLabels(q, r.Scenario, sem),
			Answer: answer, Run: q.Run, Semantics: sem,
			Why: strings.TrimSpace(lang.Lesson(r.Scenario.Name, "why."+sem.Alias(), r.Scenario.Lesson.Why[sem]))}
		var b strings.Builder
		if err := report.WriteTimeline(&b, run.Config.Topology, revealEvents(q, run)); err != nil {
			return nil, err
		}
		qv.Diagram = b.String()
		v.Questions = append(v.Questions, qv)
	}
	return v, nil
}

// Command is the command line that repeats the run r.
func Command(r *lesson.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "once run %s", r.Scenario.Name)
	if len(r.Spec.Semantics) > 0 {
		fmt.Fprintf(&b, " --semantics %s", strings.Join(r.Spec.Semantics, ","))
	}
	fmt.Fprintf(&b, " --seed %d", r.Spec.Seed)
	if r.Spec.Ops > 0 {
		fmt.Fprintf(&b, " --ops %d", r.Spec.Ops)
	}
	keys := make([]string, 0, len(r.Spec.Set))
	for k := range r.Spec.Set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " --set %s=%s", k, r.Spec.Set[k])
	}
	return b.String()
}

// OutcomeLine says what one semantics came to, in the user's words, apart
// from its guarantee and the invariants it violated (report.PromiseText).
func OutcomeLine(sc *scenarios.Scenario, o *sim.Outcome) string {
	return fmt.Sprintf("%s: %s · %s", o.Semantics, OutcomeWords(sc, o), report.PromiseText(o))
}

// OutcomeWords is what the operations of o came to in the scenario's
// words, in the current language (report.LocalOutcomeOf): "1 charged once
// ✓ · 2 charged twice ✗", "taxat o dată: 1 ✓ · refuzat conform
// designului: 2 ✓".
func OutcomeWords(sc *scenarios.Scenario, o *sim.Outcome) string {
	return report.LocalOutcomeOf(sc.Outcome, o)
}

// questionText words q; a run with parameters names them after the
// scenario ("outbox (write=publish-then-commit)"), so two runs of one
// scenario are told apart.
func questionText(q *lesson.Question, r *lesson.Result, sem sim.Semantics) string {
	name := r.Scenario.Name
	if len(r.Spec.Set) > 0 {
		var sets []string
		for k, v := range r.Spec.Set {
			sets = append(sets, k+"="+v)
		}
		slices.Sort(sets)
		name += " (" + strings.Join(sets, ", ") + ")"
	}
	data := map[string]any{"Semantics": sem.String(), "Scenario": name, "Op": sim.OpID(q.Op).String(),
		"Name": q.Name, "Promise": sem.Promise().String()}
	return lang.Tf("lesson.question."+q.Ask, data)
}

// choiceLabels are q's choices in words: the scenario's own for effects
// ("not charged", "charged once", "charged twice or more").
func choiceLabels(q *lesson.Question, sc *scenarios.Scenario, sem sim.Semantics) []string {
	var out []string
	w := report.OutcomeWords(sc.Outcome)
	tr := func(s string) string { return lang.Word("outcome", s) }
	for _, c := range q.Choices() {
		switch c.Key {
		case "none":
			out = append(out, tr(w.None))
		case "once":
			out = append(out, tr(w.Once))
		case "many":
			many := tr(w.Many)
			if w.Many != report.WordOutcomeMany {
				many += " " + tr("or more")
			}
			out = append(out, many)
		case "kept", "broken":
			out = append(out, lang.T("promise."+c.Key)+" ("+sem.Promise().String()+")")
		default:
			out = append(out, lang.T("lesson.choice."+c.Key))
		}
	}
	return out
}

// revealEvents are the events a question's reveal shows as text: those of
// the operation it asks about (effects), or of the first operation that
// did not end exactly once; with the crashes, restarts and pauses around
// them. A question about a run where every operation ended once shows the
// first operation: the normal path.
func revealEvents(q *lesson.Question, run *lesson.SemanticsRun) []sim.Event {
	op := sim.OpID(q.Op)
	if q.Ask != lesson.AskEffects {
		op = 1
		for _, r := range run.Outcome.Ops {
			if r.Verdict != sim.ExactlyOnce {
				op = r.Op
				break
			}
		}
	}
	var out []sim.Event
	for _, e := range run.Trace.Events {
		switch {
		case e.Msg.Op == op:
		case e.Kind == sim.EvCrash || e.Kind == sim.EvRestart || e.Kind == sim.EvPause || e.Kind == sim.EvResume:
		default:
			continue
		}
		out = append(out, e)
	}
	return out
}
