package sim

// Shrink returns a 1-minimal sub-plan of faults that still violates:
// faults are dropped one at a time, last first, and a drop is kept whenever
// the violation persists. Faults are named by identity, so dropping one
// never shifts the others. violates must be deterministic.
func Shrink(faults []Fault, violates func([]Fault) bool) []Fault {
	cur := append([]Fault(nil), faults...)
	for changed := true; changed; {
		changed = false
		for i := len(cur) - 1; i >= 0; i-- {
			cand := make([]Fault, 0, len(cur)-1)
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
func Violates(cfg *Config, promise Promise, plan []Fault, rest Chooser, rec Recorder) (bool, *World, error) {
	w, err := NewWorld(cfg, NewScripted(plan, rest), rec)
	if err != nil {
		return false, nil, err
	}
	w.Run()
	status, _ := w.JudgeAgainst(promise)
	return status == Violated, w, nil
}
