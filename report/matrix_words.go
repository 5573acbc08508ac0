package report

import (
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

// ownWordsLines says, for each catalog scenario of the cells whose
// outcome of no effect is accepted (the Two Generals holding back
// together), what its lost and broken columns count in its own words —
// so that "lost 65 %" is read as "nobody attacked", not as a loss.
func ownWordsLines(cells []MatrixCell) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cells {
		if seen[c.Scenario] {
			continue
		}
		seen[c.Scenario] = true
		sc, err := scenarios.Lookup(c.Scenario)
		if err != nil || !sc.Outcome.NoneOK || sc.Outcome.None == "" || sc.Outcome.Partial == "" {
			continue
		}
		out = append(out, lang.Tf("matrix.none_ok", map[string]any{"Scenario": c.Scenario,
			"None": lang.Word("outcome", sc.Outcome.None), "Partial": lang.Word("outcome", sc.Outcome.Partial)}))
	}
	return out
}
