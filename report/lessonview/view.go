// Package lessonview renders the guided lesson (lesson) in the
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

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// A StepView is one step of the lesson, ready to show.
type StepView struct {
	Number, Total int    // 1-based position in the course, and its length
	ID, Title     string // the step's id and its title in the current language
	Part          string // the part of the course text it teaches, in the current language (lesson.Step.Part)
	Minutes       int    // its time in class (lesson.Step.Minutes)
	Stories       []Story
	Runs          []RunView
	Questions     []QuestionView
	Results       map[string]*lesson.Result // by run id: the pack draws its diagrams from them
	Student       string                    // whose seed the runs have ("" for the course's own)
	Seed          uint64                    // the step's seed (the runs of a step share one)
	Cuts          []lesson.Cut              // the step's explore searches (lesson.CutsSpec), the same for every student
	CutsCommand   string                    // the command of one search, with N for the value
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
// one (computed from the run or proved by a search) and what the reveal
// shows.
type QuestionView struct {
	ID        string // the bank's question (lesson.Question.ID)
	Mechanism bool   // answered from understanding, before any run (lesson.Question.Mechanism)
	Text      string
	Choices   []string
	Keys      []string // the choices' keys (lesson.Choice.Key): "0", "4+", "op-2", "none", "fault:ack-loss"…
	// Checks are, per choice, the command whose output says whether it is
	// the answer ("once explore …"), "" for a choice read from Commands.
	Checks []string
	// Commands are the commands whose output answers the question: the
	// run it asks about, or the search.
	Commands  []string
	Ask       string // the kind of question (lesson.AskCount…)
	Class     string // what a count or first question counts (lesson.ClassMany…)
	Answer    int    // index into Choices
	Run       string // the run id it asks about
	Semantics sim.Semantics
	Diagram   string // the text trace of what it asks about (see revealEvents), or a mechanism question's proof (the searches)
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
	v := &StepView{Number: i + 1, Total: len(c.Steps), ID: s.ID, Title: lang.T("lesson.step." + s.ID), Results: results,
		Student: s.Student, Part: lang.T("lesson.part." + s.Part), Minutes: s.Minutes}
	v.Seed = s.Runs[0].Seed
	if s.Cuts != nil {
		if v.Cuts, err = s.Cuts.Explore(); err != nil {
			return nil, err
		}
		v.CutsCommand = fmt.Sprintf("once explore %s --set %s=N", s.Cuts.Scenario, s.Cuts.Param)
	}
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
		rule, err := q.BrokenRule(results, answer)
		if err != nil {
			return nil, fmt.Errorf("step %s: %w", s.ID, err)
		}
		qv := QuestionView{ID: q.ID, Mechanism: q.Mechanism(), Text: questionText(q, r, sem, rule, run.Config.Invariants != nil), Choices: choiceLabels(q, results, run),
			Keys: choiceKeys(q, results), Ask: q.Ask, Class: q.Class, Commands: questionCommands(q, r, s),
			Answer: answer, Run: q.Run, Semantics: sem,
			Why: strings.TrimSpace(lang.Lesson(r.Scenario.Name, "why."+sem.Alias(), r.Scenario.Lesson.Why[sem]))}
		for _, c := range q.ChoicesFor(results) {
			check := ""
			if c.Probe != nil {
				check = c.Probe.Command()
			}
			qv.Checks = append(qv.Checks, check)
		}
		var b strings.Builder
		if q.Mechanism() {
			proof(&b, q, results, v.Cuts)
		} else if err := report.WriteTimeline(&b, run.Config.Topology, revealEvents(q, run)); err != nil {
			return nil, err
		}
		qv.Diagram = b.String()
		for k, earlier := range v.Questions { // one reveal per trace: the same trace is shown once
			if earlier.Diagram == qv.Diagram && !strings.HasPrefix(earlier.Diagram, sameTracePrefix) {
				qv.Diagram = sameTracePrefix + lang.Tf("lesson.same_trace", map[string]any{"N": k + 1}) + "\n"
				break
			}
		}
		v.Questions = append(v.Questions, qv)
	}
	return v, nil
}

// sameTracePrefix opens a reveal that points at an earlier question's
// trace instead of printing it again.
const sameTracePrefix = "  ↑ "

// CutLines are the step's explore searches, a heading and one line per
// value of the parameter: "N = 6: split — agreement: general-b attacks
// alone — ack op-1 #6 lost (general-b → general-a)". None without cuts.
func CutLines(v *StepView) []string {
	if len(v.Cuts) == 0 {
		return nil
	}
	out := []string{lang.Tf("lesson.cuts", map[string]any{"Command": v.CutsCommand})}
	for _, c := range v.Cuts {
		if c.Holds {
			out = append(out, lang.Tf("lesson.cut_holds", map[string]any{"N": c.N}))
			continue
		}
		out = append(out, lang.Tf("lesson.cut", map[string]any{"N": c.N, "Cause": c.Cause}))
	}
	return out
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
// from its own guarantee ("≥1 — holds"), so that neither reads as the
// other.
func OutcomeLine(sc *scenarios.Scenario, o *sim.Outcome) string {
	line := fmt.Sprintf("%s: %s · %s %s", o.Semantics, OutcomeWords(sc, o), lang.T("lesson.own_promise"), report.GuaranteeOf(o))
	for _, inv := range o.Invariants {
		if inv.Violation != "" {
			line += " · " + inv.Name + ": " + lang.Violation(inv.Detail)
		}
	}
	return line
}

// OutcomeWords is what the operations of o came to in the scenario's
// words, in the current language (report.TranslatedOutcomeOf): "1 charged once
// ✓ · 2 charged twice ✗", "taxată o dată: 1 ✓ · refuzată conform
// designului: 2 ✓".
func OutcomeWords(sc *scenarios.Scenario, o *sim.Outcome) string {
	return report.TranslatedOutcomeOf(sc.Outcome, o)
}

// questionText words q: about this run (its scenario, its settings and
// its semantics), never naming the operation of interest nor an internal
// id; the counts and choices come from the run's own words ("charged
// twice or more"). A breaks or fix question says what breaks: rule, the
// invariant its search found broken, or else an operation's outcome; a
// fix question over a scenario with invariants (checked) asks for no
// failed check at all, not for every operation to end once (a fix may
// refuse an operation as designed).
func questionText(q *lesson.Question, r *lesson.Result, sem sim.Semantics, rule string, checked bool) string {
	name := r.Scenario.Name
	if variant := q.Variant(); len(variant) > 0 {
		var sets []string
		for k, v := range variant {
			sets = append(sets, k+"="+v)
		}
		slices.Sort(sets)
		name += " (" + strings.Join(sets, ", ") + ")"
	}
	w := report.OutcomeWords(r.Scenario.Outcome)
	tr := func(s string) string { return lang.Word("outcome", s) }
	words := map[string]string{lesson.ClassNone: tr(w.None), lesson.ClassOnce: tr(w.Once), lesson.ClassMany: manyWords(w)}
	data := map[string]any{"Semantics": sem.String(), "Scenario": name, "N": r.Settings.Ops,
		"Words": words[q.Class], "Once": tr(w.Once), "Of": q.Of, "Rule": rule}
	switch q.Ask {
	case lesson.AskBreaks:
		if rule != "" {
			return lang.Tf("lesson.question.breaks_rule", data)
		}
	case lesson.AskFix:
		switch {
		case rule != "":
			return lang.Tf("lesson.question.fix_rule", data)
		case checked:
			return lang.Tf("lesson.question.fix_checks", data)
		}
	case lesson.AskCause:
		id := "lesson.question.cause_many"
		if q.Class == lesson.ClassNone {
			id = "lesson.question.cause_none"
		}
		return lang.Tf(id, data)
	case lesson.AskCount, lesson.AskFirst:
		id := "lesson.question." + q.Ask
		if q.Class == lesson.ClassCaught {
			id += "_caught"
		}
		return lang.Tf(id, data)
	case lesson.AskMetric:
		return lang.Tf("lesson.metric."+q.Name, data)
	}
	return lang.Tf("lesson.question."+q.Ask, data)
}

// manyWords are the words of "two or more effects" ("charged twice or
// more").
func manyWords(w scenarios.OutcomeWords) string {
	many := lang.Word("outcome", w.Many)
	if w.Many != report.WordOutcomeMany {
		many += " " + lang.Word("outcome", "or more")
	}
	return many
}

// choiceKeys are the keys of q's choices for its run.
func choiceKeys(q *lesson.Question, results map[string]*lesson.Result) []string {
	var out []string
	for _, c := range q.ChoicesFor(results) {
		out = append(out, c.Key)
	}
	return out
}

// choiceLabels are q's choices in words: counts, operations ("op-2"),
// messages ("message #2"), "none of them", "general-a alone", fault kinds,
// changes with what they mean, statements, lines of the run's trace.
func choiceLabels(q *lesson.Question, results map[string]*lesson.Result, run *lesson.SemanticsRun) []string {
	var out []string
	for _, c := range q.ChoicesFor(results) {
		k := c.Key
		switch {
		case strings.HasPrefix(k, "fault:"):
			out = append(out, lang.T("lesson.choice.fault."+strings.TrimPrefix(k, "fault:")))
		case strings.HasPrefix(k, "set:"):
			out = append(out, changeLabel(strings.TrimPrefix(k, "set:")))
		case strings.HasPrefix(k, "cut:"):
			out = append(out, lang.T("lesson.choice.cut."+strings.TrimPrefix(k, "cut:")))
		case strings.HasPrefix(k, "event:"):
			e, _ := lesson.EventOf(run, k)
			// the trace's own line, as the reveal prints the trace: the
			// question asks which line of the trace it is
			out = append(out, strings.TrimSpace(report.TimeWords(e.At))+"  "+report.Describe(run.Config.Topology, e))
		case k == "0" && q.Ask == lesson.AskFaults:
			out = append(out, lang.T("lesson.choice.no_fault"))
		case strings.HasSuffix(k, "+"):
			out = append(out, lang.Tf("lesson.choice.or_more", map[string]any{"N": strings.TrimSuffix(k, "+")}))
		case strings.HasPrefix(k, "#"):
			out = append(out, lang.Tf("lesson.choice.message", map[string]any{"N": strings.TrimPrefix(k, "#")}))
		case strings.HasPrefix(k, "alone:"):
			out = append(out, lang.Tf("lesson.choice.alone", map[string]any{"Node": strings.TrimPrefix(k, "alone:")}))
		case k == "none" || k == "both" || k == "neither":
			id := "lesson.choice." + k
			if k == "none" && q.Ask == lesson.AskDrop {
				id = "lesson.choice.none_lost"
			}
			out = append(out, lang.T(id))
		default: // a count, an operation
			out = append(out, k)
		}
	}
	return out
}

// proof writes what proves a mechanism question's answer: each choice's
// search and what it found (a breaks or fix question), or the generals'
// searches (a cut question).
func proof(b *strings.Builder, q *lesson.Question, results map[string]*lesson.Result, cuts []lesson.Cut) {
	for _, c := range q.ChoicesFor(results) {
		if c.Probe == nil {
			continue
		}
		res, err := c.Probe.Explore()
		verdict := lang.T("lesson.proof_holds")
		switch {
		case err != nil:
			verdict = err.Error()
		case !res.Holds:
			verdict = lang.Tf("lesson.proof_breaks", map[string]any{"N": len(res.Faults)})
		}
		fmt.Fprintf(b, "  $ %s\n      → %s\n", c.Probe.Command(), verdict)
	}
	if q.Ask == lesson.AskCut {
		for _, c := range cuts {
			if c.Holds {
				fmt.Fprintf(b, "  $ %s\n      → %s\n", c.Command, lang.T("lesson.proof_holds"))
				continue
			}
			fmt.Fprintf(b, "  $ %s\n      → %s\n", c.Command, c.Cause)
		}
	}
}

// changeLabel is a fix question's choice: the change, as the command
// line gives it ("--set store=durable"); explain says what it means.
func changeLabel(set string) string {
	return lang.Tf("lesson.choice.set", map[string]any{"Set": set})
}

// questionCommands are the commands whose output answers q: the search a
// faults question reads, the searches a cut question reads, else the run
// it asks about.
func questionCommands(q *lesson.Question, r *lesson.Result, s *lesson.Step) []string {
	switch q.Ask {
	case lesson.AskFaults:
		return []string{q.Probes()[0].Command()}
	case lesson.AskCut:
		var out []string
		for n := s.Cuts.From; n <= s.Cuts.To; n++ {
			out = append(out, fmt.Sprintf("once explore %s --set %s=%d", s.Cuts.Scenario, s.Cuts.Param, n))
		}
		return out
	case lesson.AskBreaks, lesson.AskFix:
		return nil // each choice has its check
	case lesson.AskCause:
		// Its choices are lines of one semantics' trace, which the
		// step's command (tables) does not print.
		return []string{TraceCommand(r, q.Semantics)}
	}
	return []string{Command(r)}
}

// TraceCommand is the command that prints the text trace of r's run
// under one semantics (its alias: alo) alone: what a question about a
// line of the trace is answered from.
func TraceCommand(r *lesson.Result, semantics string) string {
	spec := *r.Spec // a copy: r's spec is the step's
	spec.Semantics = []string{semantics}
	one := *r
	one.Spec = &spec
	return Command(&one) + " --format trace"
}

// revealEvents are the events a question's reveal shows as text: those of
// the operation it asks about — the one it names (first), the first of
// the class it counts, the one whose message was lost first — else of the
// first operation that did not end exactly once, else of the first one
// whose mechanism shows (a timer fired for it again, a retry or a
// redelivery: the race or timeout the step is about, absorbed or not);
// with the crashes, restarts and pauses around them. Only a run where no
// operation was retried shows the first operation: the normal path.
func revealEvents(q *lesson.Question, run *lesson.SemanticsRun) []sim.Event {
	op := revealOp(q, run)
	var out []sim.Event
	for _, e := range run.Trace.Events {
		switch {
		case e.Msg.Op == op:
		case report.EventClass(run.Config.Topology, e.Kind) == sim.ClassStop || report.EventClass(run.Config.Topology, e.Kind) == sim.ClassStart:
		default:
			continue
		}
		out = append(out, e)
	}
	return out
}

// revealOp is the operation a question's reveal follows (see revealEvents).
func revealOp(q *lesson.Question, run *lesson.SemanticsRun) sim.OpID {
	switch {
	case q.Ask == lesson.AskFirst || q.Ask == lesson.AskCount && q.Class != lesson.ClassOnce:
		if op := lesson.First(run.Outcome, q.Class); op != 0 {
			return op
		}
	case q.Ask == lesson.AskCause:
		if op := lesson.First(run.Outcome, q.Class); op != 0 {
			return op
		}
	case q.Ask == lesson.AskDrop:
		for _, e := range run.Trace.Events {
			if e.Kind == sim.EvDrop && e.Reason == sim.DropLoss && e.Msg.Op > 0 {
				return e.Msg.Op
			}
		}
	}
	for _, r := range run.Outcome.Ops {
		if r.Verdict != sim.ExactlyOnce {
			return r.Op
		}
	}
	for _, e := range run.Trace.Events { // a timer fired again for it: a timeout, a retry, a redelivery
		if e.Kind == sim.EvTimerFire && e.Msg.Op > 0 && e.Msg.Attempt > 0 {
			return e.Msg.Op
		}
	}
	for _, r := range run.Outcome.Ops {
		if r.Attempts > 1 || r.Deliveries > 1 {
			return r.Op
		}
	}
	return 1
}

// PaceLine says which part of the course text the step teaches and how
// long it takes in class: "Course text: The four variants of delivery ·
// about 9 min".
func PaceLine(v *StepView) string {
	return lang.Tf("lesson.pace", map[string]any{"Part": v.Part, "N": v.Minutes})
}
