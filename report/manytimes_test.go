package report

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// An operation's ledger cell says how many times it took effect past two:
// "charged 3 times", not "charged twice" (issue 32).
func TestLedgerCellCountsEffects(t *testing.T) {
	words := scenarios.OutcomeWords{None: "not charged", Once: "charged once", Many: "charged twice"}
	for _, c := range []struct {
		effects int32
		want    string
	}{
		{2, "charged twice ✗"},
		{3, "charged 3 times ✗"},
		{7, "charged 7 times ✗"},
	} {
		got := opOutcomeCell(OpDoc{Op: 1, Effects: c.effects, Outcome: sim.OpDuplicated.String()}, words)
		if !strings.Contains(got, c.want) {
			t.Errorf("%d effects: cell %q, want %q", c.effects, got, c.want)
		}
	}
	for in, want := range map[string]string{
		"charged twice":        "charged 3 times",
		"duplicate rows":       "duplicate rows (×3)",
		"more than one effect": "more than one effect (×3)",
	} {
		if got := manyTimes(in, 3); got != want {
			t.Errorf("manyTimes(%q, 3) = %q, want %q", in, got, want)
		}
	}
	if got := manyTimes("charged twice", 2); got != "charged twice" {
		t.Errorf("manyTimes(2) = %q", got)
	}
}
