package lessonview

import (
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
)

// The Two Generals read in the generals' words, agreement holding never
// as a failure: over seeds 1..40 of the 3-message protocol every outcome
// line says "nobody attacked ✓", "attacked together ✓" or "one attacked
// alone ✗" — never "nobody attacked ✗", nor the customer's words.
func TestTwoGeneralsOutcomeWords(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		r, err := lesson.Execute(&lesson.RunSpec{ID: "valley", Scenario: "two-generals", Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		line := OutcomeLine(r.Scenario, r.Runs[0].Outcome)
		found := false
		for _, w := range []string{"1 nobody attacked ✓", "1 attacked together ✓", "1 one attacked alone ✗"} {
			if strings.Contains(line, w) {
				seen[w], found = true, true
			}
		}
		if !found || strings.Contains(line, "nobody attacked ✗") || strings.Contains(line, "charged") || strings.Contains(line, "partly done") {
			t.Errorf("seed %d: %q: not in the generals' words", seed, line)
		}
	}
	if len(seen) != 3 {
		t.Errorf("seeds 1..40 show %d of the 3 outcomes (%v): pick more seeds", len(seen), seen)
	}
}
