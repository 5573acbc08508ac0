package search

import "github.com/oncesim/once/sim"

// Minimal counterexamples across fault kinds.
//
// The search stops at the first violating path in its order, and the
// shrinker (Shrink) only drops faults from that path's plan: the plan it
// returns is minimal within the plan found, not over every schedule. A
// path with two slow messages and a crash may be found first where one
// crash alone suffices. ExploreFewer closes the gap by iterative
// deepening: it searches the budgets below the shrunk plan's fault count,
// smallest first, every fault kind of the search included, and returns
// the first violation it finds — a counterexample with the fewest faults
// over all requested kinds, as long as every smaller budget was searched
// to its end.

// FewerFaults is what ExploreFewer found below a counterexample's faults.
type FewerFaults struct {
	// Found is the first violation of the smallest budget that has one,
	// searched with MaxFaults = Budget; nil when no budget searched has.
	Found  *Result
	Budget int
	// Complete is how many budgets, from 0, were searched to their end
	// without a violation: every schedule with fewer than Complete faults
	// keeps the property. With Found set, Complete == Budget means the
	// counterexample's fault count is the fewest there is; without it,
	// Complete == below means the same of the counterexample searched
	// from.
	Complete int
	// Cut is why the search of budget Complete ended early, if it did.
	Cut string
	// Stats are the searches' statistics, summed.
	Stats Stats
}

// ExploreFewer searches cfg with the budgets of opt but MaxFaults = 0, 1,
// …, below-1 in turn, and stops at the first budget whose search finds a
// violation or is cut by a budget (or interrupted).
func ExploreFewer(cfg *sim.Config, opt Options, below int) (*FewerFaults, error) {
	out := &FewerFaults{}
	for b := 0; b < below; b++ {
		o := opt
		o.MaxFaults = b
		o.Progress = nil
		res, err := Explore(cfg, o)
		if err != nil {
			return nil, err
		}
		out.Stats = out.Stats.merge(res.Stats)
		if !res.Holds {
			out.Found, out.Budget = res, b
			return out, nil
		}
		if !res.Complete {
			out.Cut = res.Cut
			return out, nil
		}
		out.Complete = b + 1
	}
	return out, nil
}
