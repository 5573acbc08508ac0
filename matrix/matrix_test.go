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

// TestSwarmRunsRateBoundRowsAtTheirRates: the rows whose claims hold at
// their own fault rates only (rate-bound) were broken by a swarm profile
// at the seed their line names — a window a long run of faults outlasts,
// or a rate the faults set — and a swarm matrix now runs them at their
// own rates, where they hold, and says why; the other rows of the same
// scenarios still draw their profiles.
func TestSwarmRunsRateBoundRowsAtTheirRates(t *testing.T) {
	for _, c := range []struct {
		scenario, row string
		seed          uint64
	}{
		{"expired-dedup-ttl", "idem ttl=90s", 170},
		{"dedup-store-growth", "idem", 108},
		{"dedup-store-growth", "idem capacity=40", 108},
		{"ambiguous-external-outcome", "idem · ops=200", 2},
		{"pubsub-subscriber-session", "idem · crash=0 pause=0", 272},
		{"sqs-fifo-dedup-window", "alo downtime=30s · loss=0 ack-loss=0", 11},
	} {
		scs, err := Scenarios([]string{c.scenario}, nil)
		if err != nil {
			t.Fatal(err)
		}
		all, err := Rows(scs, nil)
		if err != nil {
			t.Fatal(err)
		}
		var rows []Row
		for _, r := range all {
			if r.Expect.RowKey(r.Scenario) == c.row {
				rows = append(rows, r)
			}
		}
		if len(rows) != 1 {
			t.Fatalf("%s: no row %q", c.scenario, c.row)
		}
		cfgs := []*sim.Config{rows[0].Config}
		seeds := batch.Seeds{Lo: c.seed, Hi: c.seed}
		profiled := batch.RunSeedsWith(cfgs, seeds, 1, nil, batch.Options{Swarm: true})
		if v, _ := profiled[0].Judge(rows[0].Expect); v != batch.Failed {
			t.Errorf("%s %s seed %d: %v under its swarm profile; the rate-bound line cites a seed that breaks it", c.scenario, c.row, c.seed, v)
		}
		opt := BatchOptions(rows, true)
		own := batch.RunSeedsWith(cfgs, seeds, 1, nil, opt)
		if v, _ := own[0].Judge(rows[0].Expect); v != batch.Held {
			t.Errorf("%s %s seed %d: %v in a swarm matrix, want held at the row's own rates", c.scenario, c.row, c.seed, v)
		}
		doc, verdict := Doc(rows, own, 1, true)
		if cell := doc.Cells[0]; verdict != sim.Held || cell.RateBound == "" || strings.Contains(cell.Replay, "--swarm") {
			t.Errorf("%s %s: verdict %v, rate_bound %q, replay %q: want held, the reason, no --swarm", c.scenario, c.row, verdict, cell.RateBound, cell.Replay)
		}
	}
	// a row without rate-bound keeps drawing profiles
	scs, _ := Scenarios([]string{"expired-dedup-ttl"}, nil)
	rows, _ := Rows(scs, nil)
	opt := BatchOptions(rows, true)
	drawn := 0
	for i := range rows {
		if !opt.OwnRates[i] {
			drawn++
		}
	}
	if drawn == 0 || drawn == len(rows) {
		t.Errorf("expired-dedup-ttl: %d of %d rows draw swarm profiles, want the rows without rate-bound only", drawn, len(rows))
	}
}
