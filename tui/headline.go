package tui

import "github.com/oncesim/once/sim"

// headlineSpec is the run that shows spec's scenario's lesson on spec's
// seed, the one the explorer opens on: the scenario's first headline row
// (an expect row marked headline, with its --set, faults and ops, as the
// default `once run` shows it), else the first of its semantics whose run
// harms the user most visibly — a duplicated operation, then a broken
// promise or invariant, then a lost operation — else its first semantics.
func headlineSpec(spec runSpec) runSpec {
	sc := spec.sc
	for i := range sc.Expect {
		x := &sc.Expect[i]
		if !x.Headline || !sc.Supports(x.Semantics) {
			continue
		}
		set := x.Settings(sc)
		spec.sem, spec.faults, spec.params, spec.row = x.Semantics, set.Faults, set.Params, x.Label()
		spec.ops = min(set.Ops, MaxOps)
		return spec
	}
	best, bestScore := spec.sem, -1
	for _, sem := range sc.Semantics {
		s := spec
		s.sem = sem
		if score := harm(simulate(s).outcome); score > bestScore {
			best, bestScore = sem, score
		}
	}
	spec.sem = best
	return spec
}

// harm ranks how plainly a run shows what goes wrong: 3 a duplicated
// operation, 2 a violated promise or invariant, 1 a lost operation.
func harm(o *sim.Outcome) int {
	switch {
	case o == nil:
		return 0
	case o.Count(sim.Duplicated) > 0:
		return 3
	case o.Status == sim.Violated:
		return 2
	case o.Count(sim.Lost) > 0:
		return 1
	}
	return 0
}
