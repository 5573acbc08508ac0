package roles

import "github.com/oncesim/once/sim"

// Verdict is the part of an invariant that keeps its violation: the
// invariant embeds it and sets Why when it breaks (the zero Why holds),
// and Verdict answers Violation and ViolationDetail (sim.Invariant,
// sim.ViolationDetailer) from it.
type Verdict struct {
	Why sim.Violation
}

// Violation implements sim.Invariant.
func (v *Verdict) Violation(bool) string { return v.Why.English }

// ViolationDetail implements sim.ViolationDetailer.
func (v *Verdict) ViolationDetail(bool) sim.Violation { return v.Why }
