package lesson

import (
	"fmt"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// A Result is one RunSpec run: one deterministic run per semantics on the
// spec's seed (keyed faults make it one schedule for all of them).
type Result struct {
	Spec     *RunSpec
	Scenario *scenarios.Scenario
	Settings scenarios.Settings // the inputs, without the semantics
	Runs     []SemanticsRun     // in the spec's semantics order
}

// A SemanticsRun is the run of one semantics, its trace kept for the
// reveal's diagrams: the run service's one result type.
type SemanticsRun = runs.Run

// Execute runs spec: the same inputs give the same result, byte for byte.
func Execute(spec *RunSpec) (*Result, error) {
	sc, err := scenarios.Lookup(spec.Scenario)
	if err != nil {
		return nil, fmt.Errorf("lesson: run %s: %w", spec.ID, err)
	}
	sems, err := spec.semantics(sc)
	if err != nil {
		return nil, fmt.Errorf("lesson: run %s: %w", spec.ID, err)
	}
	res := &Result{Spec: spec, Scenario: sc, Settings: spec.settings(sc, 0)}
	for _, sem := range sems {
		run, err := runs.Execute(sc, spec.settings(sc, sem), sim.NewRandom(spec.Seed), runs.Options{})
		if err != nil {
			return nil, fmt.Errorf("lesson: run %s under %s: %w", spec.ID, sem, err)
		}
		res.Runs = append(res.Runs, run)
	}
	return res, nil
}

// Of is the run of sem, or nil.
func (r *Result) Of(sem sim.Semantics) *SemanticsRun {
	for i := range r.Runs {
		if r.Runs[i].Outcome.Semantics == sem {
			return &r.Runs[i]
		}
	}
	return nil
}

// ExecuteStep runs every run of s, in order.
func ExecuteStep(s *Step) (map[string]*Result, error) {
	out := map[string]*Result{}
	for i := range s.Runs {
		r, err := Execute(&s.Runs[i])
		if err != nil {
			return nil, err
		}
		out[s.Runs[i].ID] = r
	}
	return out, nil
}
