package main

import (
	"io"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// minimalCounterexample turns the search's first violating path into a
// fault plan, shrinks it, and then looks for a counterexample with fewer
// faults over every requested kind (sim.ExploreFewer: the searches of the
// budgets below the shrunk plan's, smallest first). It renders the one
// with the fewest faults and says whether that is proved the fewest
// (every smaller budget searched to its end) or how far the look went.
func minimalCounterexample(cfg *sim.Config, promise sim.Promise, sc *scenarios.Scenario, set scenarios.Settings, res *sim.ExploreResult, opt sim.ExploreOptions, o *exploreOptions, stderr io.Writer) (*report.Counterexample, error) {
	found, plan, err := shrunkPlan(cfg, promise, res.Choices)
	if err != nil {
		return nil, err
	}
	maxFaults := o.maxFaults
	min := report.Minimality{Proved: true}
	if n := faultsIn(plan); n > 0 {
		fewer, err := sim.ExploreFewer(cfg, opt, n)
		if err != nil {
			return nil, err
		}
		min.CompleteBelow, min.Cut = fewer.Complete, fewer.Cut
		min.Proved = fewer.Complete == n
		if fewer.Found != nil {
			if found, plan, err = shrunkPlan(cfg, promise, fewer.Found.Choices); err != nil {
				return nil, err
			}
			maxFaults = fewer.Budget
			min.Proved = fewer.Complete == fewer.Budget
		}
	}
	cex, err := counterexample(cfg, promise, sc, set, found, plan, maxFaults, o, stderr)
	if err != nil {
		return nil, err
	}
	cex.Minimal = &min
	return cex, nil
}

// shrunkPlan replays the choices of a violating path, records its faults
// (found), and shrinks them to a 1-minimal plan that still violates.
func shrunkPlan(cfg *sim.Config, promise sim.Promise, choices []int) (found, plan []sim.Fault, err error) {
	rec := sim.NewRecording(&sim.Sequence{Answers: choices})
	w, err := sim.NewWorld(cfg, rec, nil)
	if err != nil {
		return nil, nil, err
	}
	w.Run()
	found = rec.Faults
	violates := func(plan []sim.Fault) bool {
		v, _, err := sim.Violates(cfg, promise, plan, nil, nil)
		return err == nil && v
	}
	plan = found
	if violates(found) {
		plan = sim.Shrink(found, violates)
	}
	return found, plan, nil
}

// faultsIn counts the faults of a plan that the fault budget pays for
// (preemptions have a budget of their own).
func faultsIn(plan []sim.Fault) int {
	n := 0
	for _, f := range plan {
		if f.Kind.IsFault() && !f.Kind.IsReorder() {
			n++
		}
	}
	return n
}
