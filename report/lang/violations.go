package lang

import (
	"strings"

	"github.com/oncesim/once/sim"
)

// Violation is an invariant's violation in the current language: "op-4's
// event took effect on billing at 330ms …" in English (the role's own
// sentence, the one the JSON carries), its translation otherwise.
func Violation(v sim.Violation) string { return Current().Violation(v) }

// Violation is Violation in l. A violation without a message id (an
// invariant outside the catalog) and a template that names a value the
// violation lacks stay in English rather than print "<no value>".
func (l Lang) Violation(v sim.Violation) string {
	if l == English || v.ID == "" {
		return v.English
	}
	data := v.Data()
	for k, x := range data {
		if d, ok := x.(string); ok {
			data[k] = l.Duration(d) // "330ms" → "330 мс"
		}
	}
	s := l.Nf(v.ID, v.Count, data)
	if s == v.ID || strings.Contains(s, "<no value>") {
		return v.English
	}
	return s
}
