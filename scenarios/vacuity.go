package scenarios

import (
	"maps"
	"slices"
	"strings"

	"github.com/oncesim/once/sim"
)

// Unprotected is what switches off the mechanism that makes an expectation
// row hold: a semantics, parameters and fault settings laid over the row's
// own. The same row run unprotected must show the violation its claims
// rule out; otherwise the row is vacuous (it holds because nothing could
// break it).
type Unprotected struct {
	Semantics sim.Semantics     // 0: the row's
	Params    map[string]string // on top of the row's
	Faults    map[string]string // fault settings ("crash", "pause-ms") on top of the row's
}

// String renders the switch as written in a scenario file, in a stable
// order: "semantics=alo lock=none crash=0.2".
func (u *Unprotected) String() string {
	var parts []string
	if u.Semantics != 0 {
		parts = append(parts, "semantics="+u.Semantics.Alias())
	}
	parts = append(parts, sortedPairs(u.Params)...)
	parts = append(parts, sortedPairs(u.Faults)...)
	return strings.Join(parts, " ")
}

// HoldsClaims returns the row's "every run" claims (=1, ≤1, ≥1,
// invariants): the ones a protecting mechanism makes true.
func (e *Expectation) HoldsClaims() []Claim {
	var out []Claim
	for _, c := range e.Claims {
		if c.EveryRun() {
			out = append(out, c)
		}
	}
	return out
}

// ShowsFailure reports whether the row shows a failure of the lesson: a
// duplicate, a loss or a broken invariant in some run.
func (e *Expectation) ShowsFailure() bool {
	for _, c := range e.Claims {
		if !c.EveryRun() {
			return true
		}
	}
	return false
}

// EveryRun reports whether the claim must hold in every run (=1, ≤1, ≥1,
// invariants), as opposed to being shown by some run.
func (c Claim) EveryRun() bool {
	switch c {
	case ClaimExactlyOnce, ClaimAtMostOnce, ClaimAtLeastOnce, ClaimInvariants:
		return true
	}
	return false
}

// UnprotectedSettings returns the row's settings with its protecting
// mechanism switched off; ok is false when the row declares no switch.
func (e *Expectation) UnprotectedSettings(sc *Scenario) (set Settings, ok bool, err error) {
	if e.Unprotected == nil {
		return Settings{}, false, nil
	}
	set = e.Settings(sc)
	u := e.Unprotected
	if u.Semantics != 0 {
		set.Semantics = u.Semantics
	}
	maps.Copy(set.Params, u.Params)
	for _, k := range slices.Sorted(maps.Keys(u.Faults)) {
		if err := set.Faults.Set(k, u.Faults[k]); err != nil {
			return set, false, err
		}
	}
	return set, true, nil
}

// compileVacuity reads a row's `unprotected:` or `inherent:` declaration.
// A row with an every-run claim may name the setting that switches its
// protecting mechanism off, or say in one line why no such switch exists;
// not both. A row without such a claim has nothing to protect.
func (l *loader) compileVacuity(sc *Scenario, e *expectSpec, x *Expectation) error {
	if e.Unprotected == nil && !e.Inherent.Set {
		return nil
	}
	holds := len(x.HoldsClaims()) > 0
	if e.Inherent.Set {
		if !holds {
			return l.errAt(e.Inherent, "expect.inherent: the row shows no every-run claim (=1, <=1, >=1, invariants): nothing holds, nothing to explain")
		}
		if e.Unprotected != nil {
			return l.errAt(e.Inherent, "expect.inherent: the row also names an unprotected switch: keep one")
		}
		reason, ok := oneLineReason(e.Inherent.Text)
		if !ok {
			return l.errAt(e.Inherent, "expect.inherent: say in one line why the row holds by the semantics alone (inherent: \"…\")")
		}
		x.Inherent = reason
		return nil
	}
	keys := byPosition(e.Unprotected)
	if len(keys) == 0 {
		return l.errAt(e.Semantics, "expect.unprotected: name the setting that switches the row's protection off ({lock: none}, {semantics: alo}, {crash: 0.2})")
	}
	if !holds {
		s := e.Unprotected[keys[0]]
		return l.errAt(s, "expect.unprotected: the row shows no every-run claim (=1, <=1, >=1, invariants): nothing to switch off")
	}
	u := &Unprotected{Params: map[string]string{}, Faults: map[string]string{}}
	for _, k := range keys {
		s := e.Unprotected[k]
		isParam := hasParam(sc, k)
		switch {
		case k == "semantics":
			sem, err := sim.ParseSemantics(s.Text)
			if err != nil {
				return l.errAt(s, "expect.unprotected.semantics: %v", err)
			}
			if !sc.Supports(sem) {
				return l.errAt(s, "expect.unprotected.semantics: the scenario does not list semantics %s", sem.Alias())
			}
			u.Semantics = sem
		case isParam && sim.IsFaultSetting(k):
			return l.errAt(s, "expect.unprotected: %q is both a parameter and a fault setting", k)
		case isParam:
			if _, err := ResolveParams(sc.Params, map[string]string{k: s.Text}); err != nil {
				return l.errAt(s, "expect.unprotected: %v", err)
			}
			u.Params[k] = s.Text
		case sim.IsFaultSetting(k):
			if err := l.unquoted(s, "expect.unprotected."+k, "a number"); err != nil {
				return err
			}
			var f Faults
			if err := f.Set(k, s.Text); err != nil {
				return l.errAt(s, "expect.unprotected.%v", err)
			}
			u.Faults[k] = s.Text
		default:
			return l.errAt(s, "expect.unprotected: %q is neither semantics, a parameter (%s) nor a fault setting (%s)",
				k, strings.Join(paramNames(sc), ", "), strings.Join(sim.FaultSettingNames(), ", "))
		}
	}
	x.Unprotected = u
	set, _, err := x.UnprotectedSettings(sc)
	if err == nil {
		_, err = sc.Config(set)
	}
	if err != nil {
		return l.errAt(e.Unprotected[keys[0]], "expect.unprotected: %v", err)
	}
	if same(x, sc, set) {
		return l.errAt(e.Unprotected[keys[0]], "expect.unprotected: the switch changes nothing: the row's own settings already say %s", u)
	}
	return nil
}

// same reports whether set is the row's own settings.
func same(x *Expectation, sc *Scenario, set Settings) bool {
	own := x.Settings(sc)
	return own.Semantics == set.Semantics && maps.Equal(own.Params, set.Params) && own.Faults == set.Faults
}

// paramNames lists the scenario's parameter names in declaration order.
func paramNames(sc *Scenario) []string {
	names := make([]string, len(sc.Params))
	for i, p := range sc.Params {
		names[i] = p.Name
	}
	if len(names) == 0 {
		return []string{"none"}
	}
	return names
}

// hasParam reports whether the scenario declares a parameter name.
func hasParam(sc *Scenario, name string) bool {
	for _, p := range sc.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}
