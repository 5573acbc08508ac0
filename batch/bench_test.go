package batch_test

import (
	"testing"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// BenchmarkBatchDoubleBilling: one op is batch.Run of the alo and idem
// rows of double-billing at 10 operations (the model of make bench-peer)
// over 256 seeds on one worker — what `once matrix --workers 1` does
// between loading the scenario and printing the table.
func BenchmarkBatchDoubleBilling(b *testing.B) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		b.Fatal(err)
	}
	var cfgs []*sim.Config
	for _, sem := range []sim.Semantics{sim.AtLeastOnce, sim.Idempotent} {
		cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: 10, Faults: sc.Faults})
		if err != nil {
			b.Fatal(err)
		}
		cfgs = append(cfgs, cfg)
	}
	const seeds = 256
	b.ReportAllocs()
	runs := 0
	for b.Loop() {
		out := batch.Run(cfgs, seeds, 1, nil)
		if out[0].Runs != seeds || out[1].WithDup != 0 {
			b.Fatalf("unexpected tallies %+v", out)
		}
		runs += len(cfgs) * seeds
	}
	b.ReportMetric(float64(runs)/b.Elapsed().Seconds(), "runs/s")
}
