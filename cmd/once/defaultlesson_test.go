package main

import (
	"encoding/json"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
)

// noFixInTheCatalog are the scenarios whose lesson is that there is no
// fix at their layer: their default run shows only the failure.
var noFixInTheCatalog = map[string]string{
	"two-generals": "no finite protocol over a lossy link guarantees agreement",
}

// TestEveryDefaultRunShowsItsFix (issue 19 item 6): `once run
// SCENARIO` with no flags shows a row where the customer is harmed (lost,
// never completed, partly done, duplicated, or an invariant violated) beside a row where
// nobody is — between semantics, or with the fix's headline row — so the
// fix is seen holding.
func TestEveryDefaultRunShowsItsFix(t *testing.T) {
	for _, sc := range scenarios.All() {
		code, out, errOut := runOnce("run", sc.Name, "--format", "json")
		if code != 0 && code != 1 {
			t.Fatalf("%s: exit %d: %s", sc.Name, code, errOut)
		}
		var doc report.RunDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		harmed, fine := 0, 0
		for _, r := range append(doc.Results, doc.Headlines...) {
			c := r.RunOutcome.Counts
			if c.Harmed() > 0 || r.RunOutcome.Run == "invariant-violated" {
				harmed++
			} else {
				fine++
			}
		}
		if why, ok := noFixInTheCatalog[sc.Name]; ok {
			if harmed == 0 {
				t.Errorf("%s (%s): the default run shows no failure", sc.Name, why)
			}
			continue
		}
		if harmed == 0 || fine == 0 {
			t.Errorf("%s: the default run shows %d harmed and %d unharmed rows; mark the fix (or the failure) row headline: true", sc.Name, harmed, fine)
		}
	}
}
