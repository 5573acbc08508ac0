package enginetest_test

import (
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// BenchmarkDoubleBillingRun: one op is one whole seeded run of
// double-billing (10 operations, the scenario's default faults), from
// building the world to its outcome — what a sweep pays per seed.
func BenchmarkDoubleBillingRun(b *testing.B) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		b.Fatal(err)
	}
	for _, sem := range []sim.Semantics{sim.Idempotent, sim.AtLeastOnce} {
		b.Run(sem.Alias(), func(b *testing.B) {
			cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: 10, Faults: sc.Faults})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			runs, events := 0, 0
			seed := uint64(0)
			for b.Loop() {
				w, err := sim.NewWorld(cfg, sim.NewRandom(seed), nil)
				if err != nil {
					b.Fatal(err)
				}
				out := w.Run()
				if !out.Finished() {
					b.Fatalf("seed %d did not finish: %s", seed, out.End)
				}
				events += out.Events
				runs++
				seed++
			}
			b.ReportMetric(float64(runs)/b.Elapsed().Seconds(), "runs/s")
			b.ReportMetric(float64(events)/float64(runs), "events/run")
		})
	}
}

// BenchmarkDoubleBillingRuns is BenchmarkDoubleBillingRun on one reused
// world (sim.Runs), without the digest: what a batch of seeds pays per
// seed when it keeps a world per worker.
func BenchmarkDoubleBillingRuns(b *testing.B) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		b.Fatal(err)
	}
	for _, sem := range []sim.Semantics{sim.Idempotent, sim.AtLeastOnce} {
		b.Run(sem.Alias(), func(b *testing.B) {
			cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: 10, Faults: sc.Faults})
			if err != nil {
				b.Fatal(err)
			}
			runs, err := sim.NewRuns(cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			n, events := 0, 0
			seed := uint64(0)
			for b.Loop() {
				out := runs.Run(seed)
				if !out.Finished() {
					b.Fatalf("seed %d did not finish: %s", seed, out.End)
				}
				events += out.Events
				n++
				seed++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "runs/s")
			b.ReportMetric(float64(events)/float64(n), "events/run")
		})
	}
}
