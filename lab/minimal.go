package lab

import (
	"fmt"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// Minimal is a violation shrunk to a 1-minimal fault plan and run once
// more with a trace: what a report renders as a counterexample.
type Minimal struct {
	Plan   []sim.Fault // the shrunk plan
	Found  int         // faults before shrinking
	Trace  *sim.Trace
	Result *Result
	Why    string // the verdict's reason, in English
}

// Minimize shrinks faults (fresh processes for every candidate, jitter
// from rest, nil for none) and traces the minimal run.
func (l *Lab) Minimize(sem sim.Semantics, judge Judge, faults []sim.Fault, rest func() sim.Chooser) (*Minimal, error) {
	plan, err := l.Shrink(sem, judge, faults, rest)
	if err != nil {
		return nil, err
	}
	var ch sim.Chooser
	if rest != nil {
		ch = rest()
	}
	trace := &sim.Trace{}
	_, r, err := l.Violates(sem, judge, plan, ch, trace)
	if err != nil {
		return nil, err
	}
	_, why := judge.RunVerdict(r)
	return &Minimal{Plan: plan, Found: len(faults), Trace: trace, Result: r, Why: why}, nil
}

// PreemptionBudget settles --max-preemptions for an explore: requested,
// or the scenario's default when not given; refused when nothing can be
// preempted (one process per node) and asked for explicitly, 0 then
// otherwise. With a budget, the preempt choice is offered at every store
// answer.
func (l *Lab) PreemptionBudget(requested int, given bool) (int, error) {
	if !given {
		requested = l.Scenario.ExploreDefaults.MaxPreemptions
	}
	switch {
	case requested < 0 || requested > search.MaxPreemptions:
		return 0, errPreempt("--max-preemptions %d: want a count in [0, %d]", requested, search.MaxPreemptions)
	case !l.Preemptible() && given && requested > 0:
		return 0, errPreempt("--max-preemptions %d: nothing to preempt: your node runs as one process (give --replicas 2)", requested)
	case !l.Preemptible():
		return 0, nil
	case requested > 0:
		l.Settings.Faults.Probability[sim.FaultPreempt] = 0.5
	}
	return requested, nil
}

func errPreempt(format string, args ...any) error { return fmt.Errorf(format, args...) }
