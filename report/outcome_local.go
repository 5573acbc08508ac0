package report

import "github.com/oncesim/once/scenarios"

// LocalOutcomeText is OutcomeText in the current language of report/lang
// ("4 taxat o dată ✓ · 1 taxat de două ori ✗"), for the screens a student
// reads (the TUI); JSON keeps OutcomeText's English.
func LocalOutcomeText(w scenarios.OutcomeWords, lost, once, many int, maxEffects int32) string {
	return localOutcomeText(w, lost, once, many, maxEffects)
}
