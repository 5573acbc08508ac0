package batch

import (
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Tally is a scenarios.Tally plus the first seed that showed each kind of
// trouble, so that a broken "all runs" claim (or an unfinished run) comes
// with a run to replay. A zero seed means "none seen".
type Tally struct {
	scenarios.Tally
	FirstLost       uint64 // first seed of a finished run that lost an operation
	FirstDup        uint64 // first seed of a run that duplicated an operation
	FirstViolation  uint64 // first seed of a run that broke an invariant
	FirstUnfinished uint64 // first seed of a run cut by a budget
	// Unsettled counts the runs of a liveness phase (sim.Config's
	// FaultsUntil) that did not settle: they did not finish, every
	// operation with its final outcome, once the faults stopped
	// (sim.LivenessOf). Always 0 without a liveness phase.
	Unsettled      int
	FirstUnsettled uint64 // first seed of a run that did not settle
}

// Add folds the outcome o of the run of cfg on seed in.
func (t *Tally) Add(seed uint64, cfg *sim.Config, o *sim.Outcome) {
	// What the run showed is what it added to the counts: the
	// operations are scanned once, by scenarios.Tally.Add.
	lost, dup, violated := t.WithLost, t.WithDup, t.InvViolated
	t.Tally.Add(o)
	first := func(dst *uint64, hit bool) {
		if hit && (*dst == 0 || seed < *dst) {
			*dst = seed
		}
	}
	first(&t.FirstLost, t.WithLost > lost)
	first(&t.FirstDup, t.WithDup > dup)
	first(&t.FirstUnfinished, !o.Finished())
	first(&t.FirstViolation, t.InvViolated > violated)
	if l, judged := sim.LivenessOf(cfg, o); judged && !l.Settled {
		t.Unsettled++
		first(&t.FirstUnsettled, true)
	}
}

// Merge folds u (the tally of later seeds, or of another chunk) into t.
func (t *Tally) Merge(u *Tally) {
	t.Tally.Merge(&u.Tally)
	t.Unsettled += u.Unsettled
	for _, p := range []struct{ dst, src *uint64 }{
		{&t.FirstLost, &u.FirstLost}, {&t.FirstDup, &u.FirstDup},
		{&t.FirstViolation, &u.FirstViolation}, {&t.FirstUnfinished, &u.FirstUnfinished},
		{&t.FirstUnsettled, &u.FirstUnsettled},
	} {
		if *p.src != 0 && (*p.dst == 0 || *p.src < *p.dst) {
			*p.dst = *p.src
		}
	}
}

// Witness is the first seed that breaks an "all runs" claim, or 0 when
// there is none to show (a "some run" claim, or nothing broke it). A run
// cut by a budget breaks nothing it did not show: FirstUnfinished is the
// run to replay for a claim left Unknown.
func (t *Tally) Witness(c scenarios.Claim) uint64 {
	var seeds []uint64
	switch c {
	case scenarios.ClaimExactlyOnce:
		seeds = []uint64{t.FirstLost, t.FirstDup, t.FirstViolation}
	case scenarios.ClaimAtMostOnce:
		seeds = []uint64{t.FirstDup}
	case scenarios.ClaimAtLeastOnce:
		seeds = []uint64{t.FirstLost}
	case scenarios.ClaimInvariants:
		seeds = []uint64{t.FirstViolation}
	}
	w := uint64(0)
	for _, s := range seeds {
		if s != 0 && (w == 0 || s < w) {
			w = s
		}
	}
	return w
}
