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
type Course struct {
	Steps []Step `yaml:"steps"`
}

// A Step is one stop of the lesson: a title (a message id), the runs it
// shows and the questions asked before they are revealed.
type Step struct {
	ID        string     `yaml:"id"`   // also the message id suffix of its title: lesson.step.<id>
	Runs      []RunSpec  `yaml:"runs"` // in the order they are shown
	Questions []Question `yaml:"questions"`
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
}

// The kinds of question, by what the answer is computed from.
const (
	AskEffects   = "effects"   // how many effects operation Op had: none, once, twice or more
	AskPromise   = "promise"   // did the semantics keep its own promise (and every invariant): the "its own promise" column
	AskInvariant = "invariant" // did invariant Name hold
	AskMetric    = "metric"    // was metric Name zero or above zero
)

// A Question asks the student to predict one fact of one run under one
// semantics.
type Question struct {
	Run       string `yaml:"run"`       // a RunSpec id of the same step
	Semantics string `yaml:"semantics"` // alias: amo, alo, idem, txn
	Ask       string `yaml:"ask"`       // AskEffects, AskPromise, AskInvariant, AskMetric
	Op        int    `yaml:"op"`        // AskEffects: the operation's number (op-Op)
	Name      string `yaml:"name"`      // AskInvariant, AskMetric: its name
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
	seen := map[string]bool{}
	for i := range c.Steps {
		s := &c.Steps[i]
		if s.ID == "" || seen[s.ID] {
			return nil, fmt.Errorf("lesson: step %d: empty or repeated id %q", i+1, s.ID)
		}
		seen[s.ID] = true
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("lesson: step %s: %w", s.ID, err)
		}
	}
	return &c, nil
}

func (s *Step) check() error {
	if len(s.Runs) == 0 || len(s.Questions) == 0 {
		return fmt.Errorf("a step needs runs and questions")
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
	for i := range s.Questions {
		q := &s.Questions[i]
		r := s.Run(q.Run)
		if r == nil {
			return fmt.Errorf("question %d: no run %q", i+1, q.Run)
		}
		sc, _ := scenarios.Lookup(r.Scenario)
		sems, _ := r.semantics(sc)
		sem, err := sim.ParseSemantics(q.Semantics)
		if err != nil || !slices.Contains(sems, sem) {
			return fmt.Errorf("question %d: semantics %q is not run by %s", i+1, q.Semantics, r.ID)
		}
		switch q.Ask {
		case AskEffects:
			if q.Op < 1 || q.Op > r.ops(sc) {
				return fmt.Errorf("question %d: op %d: want 1..%d", i+1, q.Op, r.ops(sc))
			}
		case AskPromise:
		case AskInvariant, AskMetric:
			if q.Name == "" {
				return fmt.Errorf("question %d: %s needs a name", i+1, q.Ask)
			}
		default:
			return fmt.Errorf("question %d: ask %q: want effects, promise, invariant or metric", i+1, q.Ask)
		}
	}
	return nil
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
