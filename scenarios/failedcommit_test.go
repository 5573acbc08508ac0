package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestFailedFlinkCommitIsInTheTrace: a recovery commit that finds its
// transaction aborted by the timeout used to be silent — the database
// dropped the db-commit and nothing in the trace said the records were
// gone. It now answers db-commit-failed, and every run of
// flink-transaction-timeout that loses a record shows at least one such
// answer (the failed-commits metric); with a 5 s timeout none.
func TestFailedFlinkCommitIsInTheTrace(t *testing.T) {
	sc, err := scenarios.Lookup("flink-transaction-timeout")
	if err != nil {
		t.Fatal(err)
	}
	failed := func(o *sim.Outcome) float64 {
		for _, m := range o.Metrics {
			if m.Name == "failed-commits" {
				return m.Value
			}
		}
		t.Fatalf("no failed-commits metric in %+v", o.Metrics)
		return 0
	}
	for _, c := range []struct {
		timeout  string
		wantLoss bool
	}{{"400ms", true}, {"5s", false}} {
		set := scenarios.Settings{Semantics: sim.Transactional, Ops: sc.Ops, Faults: sc.Faults,
			Params: map[string]string{"txn-timeout": c.timeout}}
		lossy := 0
		for seed := uint64(1); seed <= 60; seed++ {
			var rec failedCommitCounter
			o, err := runs.Outcome(sc, set, sim.NewRandom(seed), &rec)
			sent := rec.n
			if err != nil {
				t.Fatal(err)
			}
			lost := o.Count(sim.Lost) > 0
			if lost {
				lossy++
			}
			if float64(sent) != failed(o) {
				t.Fatalf("txn-timeout=%s seed %d: %d db-commit-failed in the trace, metric says %v", c.timeout, seed, sent, failed(o))
			}
			if lost && sent == 0 {
				t.Errorf("txn-timeout=%s seed %d: records lost, yet no db-commit-failed in the trace", c.timeout, seed)
			}
			if !c.wantLoss && sent > 0 {
				t.Errorf("txn-timeout=%s seed %d: %d failed commits", c.timeout, seed, sent)
			}
		}
		if c.wantLoss && lossy == 0 {
			t.Fatalf("txn-timeout=%s: no run over 60 seeds lost a record: the test shows nothing", c.timeout)
		}
	}
}

// failedCommitCounter counts the db-commit-failed messages sent in a trace.
type failedCommitCounter struct{ n int }

func (c *failedCommitCounter) Record(e *sim.Event) {
	if e.Kind == sim.EvSend && scenarios.RoleCatalog().Kinds().MessageNames()[e.Msg.Kind] == "db-commit-failed" {
		c.n++
	}
}
