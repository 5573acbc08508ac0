package matrix

import (
	"strings"
	"testing"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

func TestScenariosOrderAndDedup(t *testing.T) {
	scs, err := Scenarios([]string{"two-generals", "double-billing", "two-generals"}, nil)
	if err != nil || len(scs) != 2 || scs[0].Name != "two-generals" {
		t.Fatalf("%v, %v", scs, err)
	}
	if _, err := Scenarios([]string{"no-such"}, nil); err == nil {
		t.Error("an unknown name: want an error")
	}
	if all, _ := Scenarios(nil, nil); len(all) != len(scenarios.All()) {
		t.Errorf("no names: %d scenarios, want the catalog", len(all))
	}
}

// TestDocJudgesRows: a row whose runs break what it declares fails, with
// a replay line of its first witness; a row cut by a budget is unknown.
func TestDocJudgesRows(t *testing.T) {
	scs, _ := Scenarios([]string{"double-billing"}, nil)
	rows, err := Rows(scs, func(s *scenarios.Settings) error { s.MaxEvents = 5; return nil })
	if err != nil {
		t.Fatal(err)
	}
	cfgs := make([]*sim.Config, len(rows))
	for i := range rows {
		cfgs[i] = rows[i].Config
	}
	tallies := batch.Run(cfgs, 3, 1, nil)
	doc, verdict := Doc(rows, tallies, 3, false)
	if verdict != sim.Unknown || len(doc.Cells) != len(rows) {
		t.Fatalf("verdict %v (want unknown: every run is cut by its budget), %d cells", verdict, len(doc.Cells))
	}
	for _, c := range doc.Cells {
		if !strings.Contains(c.Replay, "--max-events 5") {
			t.Errorf("row %s: replay %q does not carry the budget", c.Row, c.Replay)
		}
	}
}
