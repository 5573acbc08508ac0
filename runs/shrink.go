package runs

import (
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// Shrink reduces the faults of a violating run to a 1-minimal set that
// still violates the same promise (jitter still drawn from jitter, nil
// for none), and describes the shrunk run: its plan lines, numbered steps
// and one-line cause. It is the shrinker `explore` uses, serving `run
// --check` and `replay --check` failures.
func Shrink(cfg *sim.Config, promise sim.Promise, faults []sim.Fault, jitter func() sim.Chooser) (*report.Counterexample, []sim.Fault, error) {
	rest := func() sim.Chooser {
		if jitter == nil {
			return nil
		}
		return jitter()
	}
	violates := func(plan []sim.Fault) bool {
		v, _, err := search.Violates(cfg, promise, plan, rest(), nil)
		return err == nil && v
	}
	plan := faults
	if violates(faults) {
		plan = search.Shrink(faults, violates)
	}
	trace := &sim.Trace{}
	_, end, err := search.Violates(cfg, promise, plan, rest(), trace)
	if err != nil {
		return nil, nil, err
	}
	_, why := end.JudgeReason(promise)
	cex := &report.Counterexample{
		Cause: report.Cause(cfg.Topology, why.String(), plan), CauseText: report.TranslatedCause(cfg.Topology, why, plan), Steps: report.Steps(cfg.Topology, trace.Events),
		StepsText: report.TranslatedSteps(cfg.Topology, trace.Events),
		Digest:    report.DigestString(end.Digest()), FoundFaults: len(faults),
	}
	for _, f := range plan {
		cex.Faults = append(cex.Faults, scenarios.FaultLine(cfg.Topology, f))
	}
	return cex, plan, nil
}
