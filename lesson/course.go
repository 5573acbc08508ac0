package lesson

import (
	_ "embed"
	"fmt"
	"slices"

	"github.com/goccy/go-yaml"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

//go:embed course.yaml
var courseYAML []byte

// A Course is the guided lesson: its steps in the order they are taught.
// The embedded course has two tracks: the core (Steps, one 90-minute
// class in the course text's order) and the advanced track (Advanced, a
// second class over the catalog's other scenarios); Track selects one.
type Course struct {
	Steps    []Step `yaml:"steps"`
	Advanced []Step `yaml:"advanced"`
	// TrackName is the track Steps are: TrackCore or TrackAdvanced.
	TrackName string `yaml:"-"`
}

// The lesson's tracks (`once lesson --track`).
const (
	TrackCore     = "core"     // the module in the course text's order, sized for CoreMinutes
	TrackAdvanced = "advanced" // the catalog's other scenarios and the course's remaining claims
)

// CoreMinutes is what the steps of one track may take together: a
// 90-minute class less 5 minutes of opening and 5 of wrap-up.
const CoreMinutes = 80

// The parts of the course text (seeds/000), in its order; a core step
// names the part it teaches (Step.Part) and the core follows this order.
// The teaser (the worked example's naive design, double billing) opens
// the lesson before the text's first part.
var Parts = []string{"teaser", "variants", "why-hard", "vendors", "patterns", "worked-example", "together", "advanced"}

// A Step is one stop of the lesson: a title (a message id), the runs it
// shows, its question bank and the sheet drawn from it.
type Step struct {
	ID   string    `yaml:"id"`   // also the message id suffix of its title: lesson.step.<id>
	Runs []RunSpec `yaml:"runs"` // in the order they are shown
	// Part is the part of the course text the step teaches (one of
	// Parts; message lesson.part.<part>).
	Part string `yaml:"part"`
	// Minutes is the step's time in class: the story, the questions,
	// the runs and the reveal, at the pace docs/lesson.md states.
	Minutes int `yaml:"minutes"`
	// Bank is every question the step can ask; Draw is how many of them
	// one sheet asks (0: all of them), at least one mechanism question
	// and one evidence question when the bank has both (see draw).
	Bank []Question `yaml:"questions"`
	Draw int        `yaml:"draw"`
	// Questions is the sheet: the questions drawn from Bank for the
	// step's seed, in the bank's order (mechanisms before evidence).
	Questions []Question `yaml:"-"`
	// Cuts, if any, are explore searches the step shows after its runs:
	// the same for every student (exhaustive, not seeded).
	Cuts *CutsSpec `yaml:"cuts"`

	// Student is whose seeds the runs have (ForStudent), "" for the
	// course's own.
	Student string `yaml:"-"`
	// Token is the instructor's token the seeds derive from (ForIssued),
	// "" for practice seeds from the name alone.
	Token string `yaml:"-"`
}

// A RunSpec names one deterministic run of a catalog scenario: its seed,
// the semantics to run (all of the scenario's when empty), and any
// parameters (--set) and operation count that differ from its defaults.
type RunSpec struct {
	ID        string            `yaml:"id"`
	Scenario  string            `yaml:"scenario"`
	Semantics []string          `yaml:"semantics"`
	Seed      uint64            `yaml:"seed"`
	Ops       int               `yaml:"ops"`
	Set       map[string]string `yaml:"set"`
	// Claims are what the run's rows show, by semantics alias: "holds"
	// (the fixed row) or "fails" (the broken row). A student's seed is
	// the first one at or after the student's hash whose rows still show
	// every claim of the step (see ForStudent).
	Claims map[string]string `yaml:"claims"`
}

// The claims a row can make.
const (
	ClaimHolds    = "holds"    // RowHolds: every operation once, nothing violated
	ClaimFails    = "fails"    // not RowHolds: a loss, a duplicate or a violation
	ClaimViolated = "violated" // the checker found a violation (the promise or an invariant)
	ClaimLoses    = "loses"    // some operation had no effect: at-most-once losing a payment
)

// The kinds of question, by what the answer is read from. Mechanism
// questions are answered before any run, from understanding how the
// design works; their answers are proved by exhaustive searches (Probe,
// the step's cuts), the same for every student. Evidence questions are
// answered from the student's own run (its outcome table, its trace) or
// from a search's output; their answers are read from it.
const (
	// Mechanism questions.
	AskBreaks = "breaks" // which one fault among Faults is enough to break the variant (a Probe per choice)
	AskFix    = "fix"    // which one change among Sets makes the broken variant hold (a Probe per choice)
	AskCut    = "cut"    // why more messages cannot make the generals agree (the step's cuts)

	// Evidence questions.
	AskCount  = "count"  // how many of the operations came to Class (none, once, many, caught)
	AskFirst  = "first"  // which operation (the lowest-numbered) came to Class, or none
	AskMetric = "metric" // the value of metric Name, as a count (the text says what it means)
	AskDrop   = "drop"   // which message (the trace's #n of the operation) was the first lost, or none
	AskActed  = "acted"  // which nodes applied an effect: both, one of them alone, neither
	AskCause  = "cause"  // which line of the trace is the fault behind the first operation of Class (many or none)
	AskFaults = "faults" // how many faults the variant's minimal counterexample has (0: it holds)
)

// Variant are the parameters of the variant q asks about: its run's,
// and its own Set over them.
func (q *Question) Variant() map[string]string { return q.set }

// Mechanism says whether q is answered from understanding, before the
// run (breaks, fix, cut), rather than from the run's evidence.
func (q *Question) Mechanism() bool {
	return q.Ask == AskBreaks || q.Ask == AskFix || q.Ask == AskCut
}

// The classes of operation a count or first question asks about.
const (
	ClassNone   = "none"   // no effect (lost)
	ClassOnce   = "once"   // exactly one effect
	ClassMany   = "many"   // two or more effects
	ClassCaught = "caught" // delivered more than once, yet one effect: the fix at work
)

// A Question of the bank asks one thing about one variant of the step:
// a run (its scenario and parameters) under one semantics.
type Question struct {
	ID        string   `yaml:"id"`        // names it across students (grade's rates): unique within the step
	Run       string   `yaml:"run"`       // a RunSpec id of the same step
	Semantics string   `yaml:"semantics"` // alias: amo, alo, idem, txn
	Ask       string   `yaml:"ask"`       // one of the Ask kinds
	Class     string   `yaml:"class"`     // AskCount, AskFirst: ClassNone, ClassOnce, ClassMany, ClassCaught; AskCause: ClassMany or ClassNone
	Name      string   `yaml:"name"`      // AskMetric: the metric (its meaning is the text lesson.metric.<name>)
	Of        int      `yaml:"of"`        // AskDrop: how many messages the choices offer (#1..#Of)
	Faults    []string `yaml:"faults"`    // AskBreaks: the fault kinds offered, exactly one of which breaks the variant alone
	Sets      []string `yaml:"sets"`      // AskFix: the changes offered (name=value), exactly one of which makes it hold
	// Set, for a question answered by a search (breaks, fix, faults),
	// are parameters over its run's: a variant the step does not run,
	// asked about from understanding.
	Set map[string]string `yaml:"set"`
	// Always puts the question on every student's sheet: the step's point
	// (the generals' cut), which no draw may leave out.
	Always bool `yaml:"always"`

	ops      int               // the operation count of its run (set by Parse)
	scenario string            // its run's scenario (set by Parse)
	set      map[string]string // its run's parameters (set by Parse)
	cuts     *CutsSpec         // AskCut: the step's searches (set by Parse)
	shuffle  uint64            // the sheet's order of the choices of an unordered question (0: as written)
}

// Load parses the embedded course and checks it against the catalog.
func Load() (*Course, error) { return Parse(courseYAML) }

// Parse reads a course from YAML and checks every reference: scenarios,
// semantics, parameters, runs and question kinds.
func Parse(data []byte) (*Course, error) {
	var c Course
	if err := yaml.UnmarshalWithOptions(data, &c, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("lesson: %s", yaml.FormatError(err, false, true))
	}
	if len(c.Steps) == 0 {
		return nil, fmt.Errorf("lesson: no steps")
	}
	c.TrackName = TrackCore
	seen := map[string]bool{}
	for _, track := range [][]Step{c.Steps, c.Advanced} {
		part := 0
		for i := range track {
			s := &track[i]
			if s.ID == "" || seen[s.ID] {
				return nil, fmt.Errorf("lesson: step %d: empty or repeated id %q", i+1, s.ID)
			}
			seen[s.ID] = true
			p := slices.Index(Parts, s.Part)
			if p < 0 {
				return nil, fmt.Errorf("lesson: step %s: part %q: want one of %v", s.ID, s.Part, Parts)
			}
			if p < part {
				return nil, fmt.Errorf("lesson: step %s: part %s after %s: the steps follow the course text's order", s.ID, s.Part, Parts[part])
			}
			part = p
			if s.Minutes <= 0 {
				return nil, fmt.Errorf("lesson: step %s: minutes %d: want the step's time in class", s.ID, s.Minutes)
			}
			if err := s.check(); err != nil {
				return nil, fmt.Errorf("lesson: step %s: %w", s.ID, err)
			}
		}
	}
	return &c, nil
}

// Track is the course of one track: c itself for TrackCore (or ""), the
// advanced steps for TrackAdvanced.
func (c *Course) Track(name string) (*Course, error) {
	switch name {
	case TrackCore: // not "": --track "" was taken as core
		return c, nil
	case TrackAdvanced:
		if len(c.Advanced) == 0 {
			return nil, fmt.Errorf("--track advanced: this course has no advanced track")
		}
		return &Course{Steps: c.Advanced, TrackName: TrackAdvanced}, nil
	}
	return nil, fmt.Errorf("--track %q: want %s or %s", name, TrackCore, TrackAdvanced)
}

// AllTracks is every step of every track, the core's first: what grade
// looks a result's steps up in (a result names its steps by id).
func (c *Course) AllTracks() *Course {
	return &Course{Steps: slices.Concat(c.Steps, c.Advanced), TrackName: c.TrackName}
}

// Minutes is the time of the course's steps together.
func (c *Course) Minutes() int {
	n := 0
	for i := range c.Steps {
		n += c.Steps[i].Minutes
	}
	return n
}

func (s *Step) check() error {
	if len(s.Runs) == 0 || len(s.Bank) == 0 {
		return fmt.Errorf("a step needs runs and questions")
	}
	if s.Draw < 0 || s.Draw > len(s.Bank) {
		return fmt.Errorf("draw %d: want 0 (all) to %d, the bank's size", s.Draw, len(s.Bank))
	}
	if s.Cuts != nil {
		if err := s.Cuts.check(); err != nil {
			return err
		}
	}
	for i := range s.Runs {
		r := &s.Runs[i]
		sc, err := scenarios.Lookup(r.Scenario)
		if err != nil {
			return fmt.Errorf("run %s: %w", r.ID, err)
		}
		if r.ID == "" {
			return fmt.Errorf("run of %s: no id", r.Scenario)
		}
		if r.Seed != s.Runs[0].Seed {
			return fmt.Errorf("run %s: seed %d: the runs of a step share one seed (%d), the one a student replays", r.ID, r.Seed, s.Runs[0].Seed)
		}
		sems, err := r.semantics(sc)
		if err != nil {
			return fmt.Errorf("run %s: %w", r.ID, err)
		}
		for _, sem := range sems {
			if _, err := sc.Config(r.settings(sc, sem)); err != nil {
				return fmt.Errorf("run %s: %w", r.ID, err)
			}
		}
	}
	ids := map[string]bool{}
	for i := range s.Bank {
		q := &s.Bank[i]
		if q.ID == "" || ids[q.ID] {
			return fmt.Errorf("question %d: empty or repeated id %q", i+1, q.ID)
		}
		ids[q.ID] = true
		r := s.Run(q.Run)
		if r == nil {
			return fmt.Errorf("question %s: no run %q", q.ID, q.Run)
		}
		sc, _ := scenarios.Lookup(r.Scenario)
		sems, _ := r.semantics(sc)
		sem, err := sim.ParseSemantics(q.Semantics)
		if err != nil || !slices.Contains(sems, sem) {
			return fmt.Errorf("question %s: semantics %q is not run by %s", q.ID, q.Semantics, r.ID)
		}
		q.ops, q.scenario, q.cuts = r.ops(sc), sc.Name, s.Cuts
		q.set = map[string]string{}
		for k, v := range r.Set {
			q.set[k] = v
		}
		if len(q.Set) > 0 && q.Ask != AskBreaks && q.Ask != AskFix && q.Ask != AskFaults {
			return fmt.Errorf("question %s: set: only a breaks, fix or faults question asks about a variant not run", q.ID)
		}
		for k, v := range q.Set {
			q.set[k] = v
		}
		if _, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: q.ops, Faults: sc.Faults, Params: q.set}); err != nil {
			return fmt.Errorf("question %s: %w", q.ID, err)
		}
		if err := q.checkKind(sc); err != nil {
			return fmt.Errorf("question %s: %w", q.ID, err)
		}
		switch q.Ask {
		case AskCount, AskFirst:
			if !slices.Contains([]string{ClassNone, ClassOnce, ClassMany, ClassCaught}, q.Class) {
				return fmt.Errorf("question %s: class %q: want none, once, many or caught", q.ID, q.Class)
			}
			if q.ops < 3 {
				return fmt.Errorf("question %s: %s over %d operations: want at least 3 (4 choices)", q.ID, q.Ask, q.ops)
			}
		case AskMetric:
			if q.Name == "" {
				return fmt.Errorf("question %s: metric needs a name", q.ID)
			}
		case AskDrop:
			if q.Of < 3 {
				return fmt.Errorf("question %s: drop needs of >= 3 (4 choices)", q.ID)
			}
		case AskActed, AskBreaks, AskFix, AskCut, AskCause, AskFaults:
		default:
			return fmt.Errorf("question %s: ask %q: want breaks, fix, cut, count, first, metric, drop, acted, cause or faults", q.ID, q.Ask)
		}
	}
	s.Questions = s.draw(s.Runs[0].Seed)
	for id, c := range s.claims() {
		if c != ClaimHolds && c != ClaimFails && c != ClaimViolated && c != ClaimLoses {
			return fmt.Errorf("claim %s: %q: want holds, fails, violated or loses", id, c)
		}
	}
	for i := range s.Runs {
		r := &s.Runs[i]
		sc, _ := scenarios.Lookup(r.Scenario)
		sems, _ := r.semantics(sc)
		for a := range r.Claims {
			sem, err := sim.ParseSemantics(a)
			if err != nil || !slices.Contains(sems, sem) {
				return fmt.Errorf("run %s: claim on %q: not a semantics the run runs", r.ID, a)
			}
		}
	}
	return nil
}

// claims are every claim of the step, keyed "run/semantics".
func (s *Step) claims() map[string]string {
	out := map[string]string{}
	for _, r := range s.Runs {
		for a, c := range r.Claims {
			out[r.ID+"/"+a] = c
		}
	}
	return out
}

// Run is the step's run with id, or nil.
func (s *Step) Run(id string) *RunSpec {
	for i := range s.Runs {
		if s.Runs[i].ID == id {
			return &s.Runs[i]
		}
	}
	return nil
}

// Step is the step with id, or nil.
func (c *Course) Step(id string) *Step {
	for i := range c.Steps {
		if c.Steps[i].ID == id {
			return &c.Steps[i]
		}
	}
	return nil
}

func (r *RunSpec) ops(sc *scenarios.Scenario) int {
	if r.Ops > 0 {
		return r.Ops
	}
	return sc.Ops
}

// semantics are the run's semantics, in the order given (the scenario's
// own order when none is given).
func (r *RunSpec) semantics(sc *scenarios.Scenario) ([]sim.Semantics, error) {
	if len(r.Semantics) == 0 {
		return sc.Semantics, nil
	}
	var out []sim.Semantics
	for _, a := range r.Semantics {
		sem, err := sim.ParseSemantics(a)
		if err != nil {
			return nil, err
		}
		if !sc.Supports(sem) {
			return nil, fmt.Errorf("scenario %s does not support %s", sc.Name, sem)
		}
		out = append(out, sem)
	}
	return out, nil
}

// settings are the inputs of the run under sem: the scenario's defaults,
// with the run's operation count and parameters.
func (r *RunSpec) settings(sc *scenarios.Scenario, sem sim.Semantics) scenarios.Settings {
	set := scenarios.Settings{Semantics: sem, Ops: r.ops(sc), Faults: sc.Faults, Params: map[string]string{}}
	for k, v := range r.Set {
		set.Params[k] = v
	}
	return set
}
