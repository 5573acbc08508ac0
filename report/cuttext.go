package report

import (
	"strings"

	"github.com/oncesim/once/report/lang"
)

// cutForms are the ways the explorer says why its search was cut (see
// sim's search), each as its English text around one value, and the
// message that says it in the reader's language.
var cutForms = []struct{ prefix, suffix, id string }{
	{"state budget of ", " exhausted", "cut.states"},
	{"memory budget of ", " exhausted", "cut.memory"},
	{"depth budget of ", " steps exhausted", "cut.depth"},
	{"a schedule hit the run's ", "", "cut.run_budget"},
}

// CutText is why an exploration was cut, in the current language: "state
// budget of 100000 exhausted" reads "bugetul de stări (100000) s-a
// epuizat". The JSON keeps the explorer's English; a reason this does not
// know stays as it is.
func CutText(cut string) string {
	if lang.Current() == lang.English || cut == "" {
		return cut
	}
	if cut == "interrupted" {
		return lang.T("cut.interrupted")
	}
	for _, f := range cutForms {
		if v, ok := strings.CutPrefix(cut, f.prefix); ok && strings.HasSuffix(v, f.suffix) {
			v = strings.TrimSuffix(v, f.suffix)
			if f.id == "cut.run_budget" {
				v = lang.Word("end", v)
			}
			return lang.Tf(f.id, map[string]any{"Value": v})
		}
	}
	return cut
}
