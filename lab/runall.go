package lab

import (
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/sim"
)

// RunAll runs the lab once per semantics on seed, as `once lab` does: the
// trace kept for every format, each run judged by the scenario's row and
// its replay line set by replay. With check, each schedule is run twice
// more on fresh processes to show the nodes deterministic.
func (l *Lab) RunAll(sems []sim.Semantics, seed uint64, check bool, replay func(sim.Semantics) string) ([]runs.Run, map[sim.Semantics]Judge, error) {
	var rs []runs.Run
	judges := map[sim.Semantics]Judge{}
	for _, sem := range sems {
		rec := sim.NewRecording(sim.NewRandom(seed))
		trace := &sim.Trace{}
		r, err := l.Run(sem, rec, trace)
		if err != nil {
			return nil, nil, err
		}
		judges[sem] = l.JudgeFor(sem)
		judges[sem].Rejudge(r)
		if check {
			if err := l.CheckDeterminism(sem, func() sim.Chooser { return sim.NewRandom(seed) }); err != nil {
				return nil, nil, err
			}
		}
		rs = append(rs, runs.Run{Config: r.Config, Outcome: r.Outcome, Trace: trace, Faults: rec.Faults, Replay: replay(sem)})
	}
	return rs, judges, nil
}

// ShrinkViolations shrinks the faults of every violated run to a minimal
// plan its judge still finds violated, re-running fresh processes, with
// the jitter of seed; the counterexample keeps the run's replay line.
func (l *Lab) ShrinkViolations(rs []runs.Run, judges map[sim.Semantics]Judge, seed uint64) error {
	for i := range rs {
		if rs[i].Outcome.Status != sim.Violated {
			continue
		}
		sem := rs[i].Outcome.Semantics
		cex, err := l.Counterexample(sem, judges[sem], rs[i].Faults, func() sim.Chooser { return sim.NewJitter(seed) })
		if err != nil {
			return err
		}
		cex.Replay = rs[i].Replay
		rs[i].Shrunk = cex
	}
	return nil
}

// ReplayPlan runs the plan's faults (jitter from its seed when it has
// one) and judges the run; hit is how many of the faults the run met.
// With check, a violated run is shrunk, its counterexample replayed by
// replay.
func (l *Lab) ReplayPlan(sem sim.Semantics, faults []sim.Fault, jitter func() sim.Chooser, check bool, replay string) (rs []runs.Run, judge Judge, hit int, err error) {
	var rest sim.Chooser
	if jitter != nil {
		rest = jitter()
	}
	chooser := sim.NewScripted(faults, rest)
	trace := &sim.Trace{}
	r, err := l.Run(sem, chooser, trace)
	if err != nil {
		return nil, judge, 0, err
	}
	judge = l.JudgeFor(sem)
	judge.Rejudge(r)
	rs = []runs.Run{{Config: r.Config, Outcome: r.Outcome, Trace: trace, Faults: faults, Replay: replay}}
	if check && r.Outcome.Status == sim.Violated {
		cex, err := l.Counterexample(sem, judge, faults, jitter)
		if err != nil {
			return nil, judge, 0, err
		}
		cex.Replay = replay
		rs[0].Shrunk = cex
	}
	return rs, judge, chooser.Used(), nil
}
