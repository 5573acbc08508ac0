package matrix

import (
	"testing"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/sim"
)

// TestSwarmRowsConclude: under a swarm some profiles starve a transaction
// of progress (late ×4 on every hop: seed 12 of kafka-hanging-transaction
// transactions=v2 and seed 8 of transaction-abort ran out of their hour
// still aborting). A swarm run's faults stop at half its budget
// (sim.SwarmFaultsUntil), so every such run finishes and every row over a
// small swarm concludes — none is left unknown (before: seeds 8 and 12
// left transaction-abort txn and kafka-hanging-transaction's v2 rows
// unknown).
func TestSwarmRowsConclude(t *testing.T) {
	scs, err := Scenarios([]string{"kafka-hanging-transaction", "transaction-abort", "kafka-eos-happy-path"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Rows(scs, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfgs := make([]*sim.Config, len(rows))
	for i := range rows {
		cfgs[i] = rows[i].Config
	}
	const seeds = 20
	tallies := batch.RunSeedsWith(cfgs, batch.Seeds{Lo: 1, Hi: seeds}, 2, nil, BatchOptions(rows, true))
	doc, _ := Doc(rows, tallies, seeds, true) // a "some run" claim may need more than 20 seeds: not asked here
	for i, c := range doc.Cells {
		if c.Expectation == "unknown" {
			t.Errorf("%s %s: unknown, replay: %s", c.Scenario, c.Row, c.Replay)
		}
		// A row that claims something of every run needs every run
		// finished; a hang the row shows (txn-timeout=0) may stay cut.
		if u := tallies[i].Unfinished(); u > 0 && len(rows[i].Expect.HoldsClaims()) > 0 {
			t.Errorf("%s %s: %d of %d swarm runs cut by a budget (first seed %d)", c.Scenario, c.Row, u, seeds, tallies[i].FirstUnfinished)
		}
	}
}

// TestSwarmFaultsStop: a swarm run takes no fault after half its time
// budget, and a run with its own liveness phase keeps it.
func TestSwarmFaultsStop(t *testing.T) {
	cfg := &sim.Config{MaxTime: 10_000}
	if got := sim.SwarmFaultsUntil(cfg); got != 5_000 {
		t.Errorf("SwarmFaultsUntil(10s budget) = %v, want 5s", got)
	}
	if got := sim.SwarmFaultsUntil(&sim.Config{}); got != sim.DefaultMaxTime/2 {
		t.Errorf("SwarmFaultsUntil(default budget) = %v, want %v", got, sim.DefaultMaxTime/2)
	}
}
