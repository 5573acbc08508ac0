package report

import "github.com/oncesim/once/scenarios"

// LocalOutcomeText is OutcomeText in the current language of report/lang
// ("taxat o dată: 4 ✓ · taxat de două ori: 1 ✗").
//
// Deprecated: it counts verdicts, so a designed refusal reads as a loss;
// use LocalOutcomeOf, which renders sim's outcome classification.
func LocalOutcomeText(w scenarios.OutcomeWords, lost, once, many int, maxEffects int32) string {
	return localOutcomeText(w, lost, once, many, maxEffects)
}
