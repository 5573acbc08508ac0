package lang

import (
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/oncesim/once/sim"
)

// Nf is the UI message id for the count n in the current language, in the
// plural form the language gives n, with {{.Count}} and data's other
// placeholders filled.
func Nf(id string, n int, data map[string]any) string { return Current().Nf(id, n, data) }

// Nf is Nf in l.
func (l Lang) Nf(id string, n int, data map[string]any) string {
	td := map[string]any{"Count": n}
	for k, v := range data {
		td[k] = v
	}
	s, err := uiLocalizer(l, id).Localize(&i18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: td})
	if s == "" && err != nil {
		return id
	}
	return s
}

// reasonIDs is the message of each reason kind a checker gives; an
// invariant's reason is its name and its violation (see Violation).
var reasonIDs = map[sim.ReasonKind]string{
	sim.ReasonDuplicate:   "reason.duplicate",
	sim.ReasonDivergent:   "reason.divergent",
	sim.ReasonNoEffectYet: "reason.no_effect_yet",
	sim.ReasonNoEffect:    "reason.no_effect",
	sim.ReasonUnfinished:  "reason.unfinished",
	sim.ReasonNeverDone:   "reason.never_completes",
}

// Reason is why a verdict is what it is, in the current language: "op-2
// are 2 efecte, se cerea ≤1". English is the checker's own sentence, the
// one the JSON carries.
func Reason(r sim.Reason) string { return Current().Reason(r) }

// Reason is Reason in l.
func (l Lang) Reason(r sim.Reason) string {
	if l != English && r.Kind == sim.ReasonInvariant {
		return r.Invariant + ": " + l.Violation(r.Message)
	}
	id, ok := reasonIDs[r.Kind]
	if l == English || !ok {
		return r.String()
	}
	return l.Nf(id, int(r.N), map[string]any{"Op": r.Op.String(), "Promise": r.Promise.String()})
}
