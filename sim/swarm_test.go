package sim

import "testing"

// TestSwarmProfile: a profile is a pure function of its seed, never turns
// every fault kind off, turns each kind on for about half the seeds, keeps
// a kind at probability 0 off and one at 1 on, and caps a scaled
// probability below 1.
func TestSwarmProfile(t *testing.T) {
	on := map[ChoiceKind]int{}
	const seeds = 4000
	for seed := uint64(1); seed <= seeds; seed++ {
		p := NewSwarmProfile(seed)
		if q := NewSwarmProfile(seed); q != p {
			t.Fatalf("seed %d: two profiles %v and %v", seed, p.String(), q.String())
		}
		any := false
		for k := ChoiceKind(1); k < NumChoiceKinds; k++ {
			if p.Scale[k] != 0 {
				if !k.IsFault() {
					t.Fatalf("seed %d: %s is not a fault but is scaled", seed, k)
				}
				on[k]++
				any = true
			}
			if got := p.Apply(k, 0); got != 0 {
				t.Fatalf("a kind at 0 turned on: %v", got)
			}
			if got := p.Apply(k, 1); got != 1 {
				t.Fatalf("a certain fault changed: %v", got)
			}
			if got := p.Apply(k, 0.5); got > swarmMaxP {
				t.Fatalf("seed %d: %s scaled to %v", seed, k, got)
			}
		}
		if !any {
			t.Fatalf("seed %d: every kind off", seed)
		}
	}
	for k := ChoiceKind(1); k < NumChoiceKinds; k++ {
		if k.IsFault() && (on[k] < seeds*45/100 || on[k] > seeds*58/100) {
			t.Errorf("%s on for %d of %d seeds, want about half", k, on[k], seeds)
		}
	}
	if got := NewSwarmProfile(7).String(); got == "" {
		t.Error("a profile spelled as nothing")
	}
}
