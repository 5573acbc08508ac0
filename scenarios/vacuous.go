package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oncesim/once/sim"
)

// CheckVacuity refuses what `once validate` calls a vacuous claim — one
// that holds whatever the scenario's nodes do, so that "held" proves
// nothing — with the first one's file:line:col:
//
//   - a row with an every-run claim (=1, ≤1, ≥1, invariants) that names
//     neither `unprotected:` (the switch that breaks it) nor `inherent:`
//     (why nothing can);
//   - an `unprotected:` switch that changes nothing: its parameters
//     resolve to the row's own values, and the fault kinds it turns on
//     have no place to strike in the scenario (a crash where no node is
//     crash: true);
//   - an invariant that reads what a kind of client accepts (one-receipt,
//     own-receipt: an HTTP client's receipts) in a scenario whose
//     observed client is not of that kind (a queue's producer).
//
// The loader accepts all three (a file under construction runs); the
// catalog passes every check (TestCatalogIsNotVacuous).
func (s *Scenario) CheckVacuity() error {
	if s.spec == nil {
		return nil
	}
	l := &loader{file: s.File, spec: s.spec, cat: s.Roles(), kinds: s.Kinds}
	if err := l.clientInvariants(); err != nil {
		return err
	}
	for i := range s.Expect {
		if i >= len(s.spec.Expect) {
			break
		}
		e, x := &s.spec.Expect[i], &s.Expect[i]
		if len(x.HoldsClaims()) == 0 {
			continue
		}
		if x.Unprotected == nil && x.Inherent == "" {
			at, claim := e.Semantics, x.HoldsClaims()[0]
			for j, c := range x.Claims {
				if c == claim && j < len(e.Show) {
					at = e.Show[j]
					break
				}
			}
			return l.errAt(at, "expect.show: %s is claimed of every run, but the row names neither unprotected: {…} (the setting that breaks it) nor inherent: \"…\" (why nothing can): a claim nothing could break proves nothing", claim)
		}
		if x.Unprotected == nil {
			continue
		}
		why, err := unprotectedChangesNothing(s, x)
		if err != nil {
			return l.errAt(e.Unprotected[byPosition(e.Unprotected)[0]], "expect.unprotected: %v", err)
		}
		if why != "" {
			return l.errAt(e.Unprotected[byPosition(e.Unprotected)[0]], "expect.unprotected: {%s} changes nothing: %s", x.Unprotected, why)
		}
	}
	return nil
}

// unprotectedChangesNothing says why row x's unprotected switch leaves
// every run as it is, "" when it changes something.
func unprotectedChangesNothing(s *Scenario, x *Expectation) (string, error) {
	off, _, err := x.UnprotectedSettings(s)
	if err != nil {
		return "", err
	}
	own := x.Settings(s)
	if off.Semantics != own.Semantics {
		return "", nil
	}
	a, err := ResolveParams(s.Params, own.Params)
	if err != nil {
		return "", err
	}
	b, err := ResolveParams(s.Params, off.Params)
	if err != nil {
		return "", err
	}
	if !slices.Equal(a.Sorted(), b.Sorted()) {
		return "", nil
	}
	var changed []sim.FaultKind
	for k := range sim.FaultKinds {
		kind := sim.FaultKind(k)
		if off.Faults.Probability[k] == own.Faults.Probability[k] && off.Faults.DurationOf(kind) == own.Faults.DurationOf(kind) {
			continue
		}
		if off.Faults.Probability[k] == 0 && own.Faults.Probability[k] == 0 {
			continue // a duration of a kind that never strikes
		}
		changed = append(changed, kind)
	}
	if len(changed) == 0 {
		return "the parameters resolve to the row's own values and the faults are the row's", nil
	}
	points, err := CountChoicePoints(func(f Faults) (*sim.Config, error) {
		set := off
		set.Faults = f
		return s.Config(set)
	})
	if err != nil {
		return "", err
	}
	var none []string
	for _, k := range changed {
		if points.Has(k) {
			return "", nil
		}
		none = append(none, fmt.Sprintf("%s has %s", k, NoChoicePoint(k)))
	}
	return "the parameters are the row's, and " + strings.Join(none, "; "), nil
}

// clientInvariants refuses an invariant that reads a kind of client's
// accepted responses in a scenario whose observed origin is not one.
func (l *loader) clientInvariants() error {
	origin := l.spec.Observe.Origin.Text
	if origin == "" && len(l.spec.Nodes) > 0 {
		origin = l.spec.Nodes[0].Name.Text // the engine's default origin: node 0
	}
	role := ""
	for _, n := range l.spec.Nodes {
		if n.Name.Text == origin {
			role = n.Role.Text
		}
	}
	for _, inv := range l.spec.Invariants {
		spec, ok := l.cat.LookupInvariant(inv.Text)
		if !ok || len(spec.Clients) == 0 || slices.Contains(spec.Clients, role) {
			continue
		}
		return l.errAt(inv, "invariants: %s reads the responses an HTTP client accepts (roles %s); this scenario's client %s is a %s, which accepts none: it would hold whatever happens",
			inv.Text, strings.Join(spec.Clients, ", "), origin, role)
	}
	return nil
}
