package sim_test

import (
	"runtime"
	"testing"

	"github.com/oncesim/once/network"
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

// BenchmarkEngineNetwork is BenchmarkEngine's ring driven through the
// real network package, with jitter on every link so that each send asks
// the Chooser: the difference from BenchmarkEngine/jitter is the cost of
// network.Network, allocations included.
func BenchmarkEngineNetwork(b *testing.B) {
	const nodes, inFlight = 8, 1000
	net := network.New(nodes)
	for from := range sim.NodeID(nodes) {
		for to := range sim.NodeID(nodes) {
			*net.Link(from, to) = network.Link{Delay: 1, Jitter: 99}
		}
	}
	w, err := sim.NewWorld(sim.BenchPingPong(nodes, inFlight, net), sim.NewJitter(1), nil)
	if err != nil {
		b.Fatal(err)
	}
	for range 20 * inFlight {
		w.Step()
	}
	b.ReportAllocs()
	steps := 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		if !w.Step() {
			b.Fatalf("the world ended: %s", w.Ended())
		}
		steps++
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(steps), "allocs/event")
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
