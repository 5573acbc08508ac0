package report

import (
	"strings"
	"testing"

	"github.com/oncesim/once/report/lang"
)

// TestCutBeforeAnyFaultBranched: a search cut (here by its memory budget)
// before any fault branched printed "0 complete schedules" and then
// "only the fault-free schedule was searched"; it now says none branched
// before the cut. A complete search keeps its line.
func TestCutBeforeAnyFaultBranched(t *testing.T) {
	defer lang.Set(lang.Current())
	lang.Set(lang.English)
	for _, c := range []struct {
		complete bool
		cut      string
		want     string
	}{
		{false, "memory budget of 1KiB exhausted", "faults that branched: none before the search was cut"},
		{true, "", "faults that branched: none — only the fault-free schedule was searched"},
	} {
		var b strings.Builder
		d := ExploreDoc{Scenario: "double-billing", Semantics: "at-least-once", Ops: 1, MaxFaults: 3, Holds: true, Complete: c.complete, Cut: c.cut}
		if err := WriteExploreText(&b, d); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) || !c.complete && strings.Contains(b.String(), "only the fault-free") {
			t.Errorf("complete %v: want %q in:\n%s", c.complete, c.want, b.String())
		}
	}
}
