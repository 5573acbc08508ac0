package search

import (
	"fmt"

	"github.com/oncesim/once/sim"
)

// Reduction names the reductions of the state space a search applies
// (Options.Reduce, `once explore --reduce`).
//
// Symmetry stores one state per orbit of the permutations of the
// configuration's operations (sim.Symmetry) — together with the
// permutations of the ids a node issued and the shifts of each
// operation's attempt numbers, where every role declares them
// (sim.IDRenamer, sim.AttemptRenamer): a state reached with op-3 charged
// and op-5 in flight is skipped when the same state with op-5 charged and
// op-3 in flight was explored with no more faults used. It
// is sound for the reason the state cache is: the skipped state's
// futures are the explored one's, renamed (the roles are equivariant,
// sim.OpRenamer), with the same verdicts and the same fault costs, so a
// violation below the skipped state has a renamed twin below the kept
// one, with as many faults. The search keeps the concrete choices on its
// stack, so a counterexample is a concrete schedule: reported and
// replayed in the operations' own ids. A configuration whose roles do not
// all declare themselves symmetric (sim.NewSymmetry says why) is searched
// without it, and the result says so (Result.SymmetryOff).
//
// A search under the symmetry reduction is not split into parts
// (explore_parts.go) unless Tuning.SplitAt asks for it, or it is one
// shard of several: the parts keep visited sets of their own, and under
// the reduction the subtrees of different parts are largely renamings of
// each other, which a shared set merges and separate ones store once per
// part. double-billing idem loss,ack-loss stores 4.0× the undivided
// search's states as 16 parts at 8 / 8 (382 649 against 96 056) and 6.2×
// at 10 / 10 (3 501 389 against 562 825; 3.9 s on two workers against
// 1.3 s on one), more than a second core wins back. Without the reduction
// the parts store about 1.45× (6 / 6: 72 135 against 49 358; 8 / 8:
// 1 596 629 against 1 103 631), and they stay.
//
// Partial-order reduction is not implemented: ParseReduction refuses
// "por". Sleep sets and persistent sets skip orders of independent
// transitions enabled in one state; the engine enables one event per
// state (it pops by time and sequence), and the search's alternatives are
// the chooser's answers inside that event's step — exclusive outcomes,
// not steps that commute. The alternatives that move events (preemptions,
// delays) move them in time, to a different timed state. SPIN's own
// reduction prunes nothing on the same model at this granularity (one
// atomic step per handler): docs/explore.md, "Why there is no
// partial-order reduction".
type Reduction uint8

const (
	// ReduceAll, the zero value, applies every reduction implemented:
	// today, symmetry.
	ReduceAll Reduction = iota
	// ReduceNone applies none but the state cache.
	ReduceNone
	// ReduceSymmetry applies the symmetry reduction.
	ReduceSymmetry
)

// ReductionNames are the values --reduce accepts.
var ReductionNames = []string{"none", "symmetry", "all"}

// ParseReduction reads a --reduce value. "por" is refused: there is no
// partial-order reduction to apply, and accepting it would claim one.
func ParseReduction(s string) (Reduction, error) {
	switch s {
	case "", "all":
		return ReduceAll, nil
	case "none":
		return ReduceNone, nil
	case "symmetry":
		return ReduceSymmetry, nil
	case "por":
		return 0, fmt.Errorf("--reduce %s: partial-order reduction is not implemented (the engine runs one event per state, so no two steps are explored in both orders: nothing to prune, docs/explore.md); want none, symmetry or all", s)
	}
	return 0, fmt.Errorf("--reduce %q: want none, symmetry or all", s)
}

// String is the --reduce value of r.
func (r Reduction) String() string {
	switch r {
	case ReduceNone:
		return "none"
	case ReduceSymmetry:
		return "symmetry"
	}
	return "all"
}

// symmetric says whether r asks for the symmetry reduction.
func (r Reduction) symmetric() bool { return r == ReduceAll || r == ReduceSymmetry }

// symmetry sets up the symmetry reduction opt asks for, if cfg allows it:
// the Symmetry (nil when off) and why it is off although asked for (nil
// when it is on, or not asked for).
func symmetry(cfg *sim.Config, opt *Options) (*sim.Symmetry, *sim.SymmetryOff) {
	if !opt.Reduce.symmetric() {
		return nil, nil
	}
	return sim.NewSymmetry(cfg, opt.Kinds)
}
