package sim_test

import (
	"runtime"
	"testing"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/sim"
)

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
