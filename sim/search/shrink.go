package search

import "github.com/oncesim/once/sim"

// Shrink returns a 1-minimal sub-plan of faults that still violates:
// faults are dropped one at a time, last first, and a drop is kept whenever
// the violation persists. Faults are named by identity, so dropping one
// never shifts the others. violates must be deterministic.
func Shrink(faults []sim.Fault, violates func([]sim.Fault) bool) []sim.Fault {
	cur := append([]sim.Fault(nil), faults...)
	for changed := true; changed; {
		changed = false
		for i := len(cur) - 1; i >= 0; i-- {
			cand := make([]sim.Fault, 0, len(cur)-1)
			cand = append(cand, cur[:i]...)
			cand = append(cand, cur[i+1:]...)
			if violates(cand) {
				cur, changed = cand, true
			}
		}
	}
	return cur
}

// Violates runs cfg with the faults of plan (jitter answered by rest, nil
// for none) and reports whether promise or an invariant is violated,
// with the world at its end.
func Violates(cfg *sim.Config, promise sim.Promise, plan []sim.Fault, rest sim.Chooser, rec sim.Recorder) (bool, *sim.World, error) {
	w, err := sim.NewWorld(cfg, sim.NewScripted(plan, rest), rec)
	if err != nil {
		return false, nil, err
	}
	w.Run()
	status, _ := w.JudgeAgainst(promise)
	return status == sim.Violated, w, nil
}
