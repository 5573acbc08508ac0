package lab

import (
	"fmt"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// Result is one finished lab run.
type Result struct {
	Config  *sim.Config
	Outcome *sim.Outcome
	World   *sim.World
	Steps   []Step
	// Stall, if set, is why the harness ended the run early: it made no
	// progress (stall.go). It is judged as finished.
	Stall *Stall
}

// Run runs the lab once under semantics sem with ch answering every
// choice (rec may be nil). It returns an *Error when a node could not be
// judged; every process is dead when it returns.
func (l *Lab) Run(sem sim.Semantics, ch sim.Chooser, rec sim.Recorder) (*Result, error) {
	return l.run(sem, ch, rec, nil, nil, 0)
}

// run runs the lab once; with a pool, its processes may be reset ones
// and are reset and kept for the next run when it ends. share, if not 0,
// is what the run may hold: an explore's share of --max-memory.
func (l *Lab) run(sem sim.Semantics, ch sim.Chooser, rec sim.Recorder, pos func() int, p *pool, share int64) (*Result, error) {
	s, err := l.NewSession(sem)
	if err != nil {
		return nil, err
	}
	if share > 0 {
		s.memLimit, s.memOf = share, fmt.Sprintf("1/%d of --max-memory %s, a schedule's share in an explore", runShares, search.FormatBytes(l.maxMemory()))
	}
	defer s.Close()
	s.pool = p
	s.transcript.pos = pos
	// The run records the trace only where rec asks: a lab run is judged
	// from its world's tables and its transcript.
	run, err := runs.ExecuteConfig(s.cfg, ch, runs.Options{Recorder: rec, NoTrace: rec == nil, Continue: func() bool { return s.err == nil && s.stall == nil }})
	if err != nil {
		return nil, fmt.Errorf("lab: %w", err)
	}
	run.Roles = s.lab.Scenario.Roles()
	s.Close() // a reset that fails is the run's error
	if s.err != nil {
		return nil, s.err
	}
	return &Result{Config: s.cfg, Outcome: run.Outcome, World: run.World, Steps: s.transcript.steps, Stall: s.stall}, nil
}

// CheckDeterminism runs the schedule ch() twice, with fresh processes,
// and returns a *NondeterminismError naming the first step the two runs
// answered differently, nil if they agree.
func (l *Lab) CheckDeterminism(sem sim.Semantics, ch func() sim.Chooser) error {
	a, err := l.Run(sem, ch(), nil)
	if err != nil {
		return err
	}
	b, err := l.Run(sem, ch(), nil)
	if err != nil {
		return err
	}
	return compareSteps(a.Steps, b.Steps, -1)
}

// Violates runs plan (jitter from rest, nil for none) and reports whether
// judge finds it violated, with the run.
func (l *Lab) Violates(sem sim.Semantics, judge Judge, plan []sim.Fault, rest sim.Chooser, rec sim.Recorder) (bool, *Result, error) {
	r, err := l.Run(sem, sim.NewScripted(plan, rest), rec)
	if err != nil {
		return false, nil, err
	}
	status, _ := judge.RunVerdict(r)
	return status == sim.Violated, r, nil
}

// Shrink reduces faults to a 1-minimal plan that judge still finds
// violated, re-running fresh processes for every candidate.
func (l *Lab) Shrink(sem sim.Semantics, judge Judge, faults []sim.Fault, rest func() sim.Chooser) ([]sim.Fault, error) {
	var firstErr error
	violates := func(plan []sim.Fault) bool {
		var ch sim.Chooser
		if rest != nil {
			ch = rest()
		}
		v, _, err := l.Violates(sem, judge, plan, ch, nil)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return err == nil && v
	}
	plan := faults
	if violates(faults) {
		plan = search.Shrink(faults, violates)
	}
	return plan, firstErr
}
