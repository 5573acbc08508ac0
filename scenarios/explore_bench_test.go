package scenarios_test

import (
	"fmt"
	"testing"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// BenchmarkExploreDoubleBilling6x8 is the search of the SPIN comparison at
// 6 operations and 8 faults of loss,ack-loss (about 1.25 M states).
func BenchmarkExploreDoubleBilling6x8(b *testing.B) {
	cfg := exploreConfig(b, "double-billing", sim.Idempotent, 6, "loss,ack-loss", nil)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			states := 0
			for b.Loop() {
				res, err := search.Explore(cfg, search.Options{MaxFaults: 8, Promise: sim.ExactlyOne, Workers: workers})
				if err != nil || !res.Holds {
					b.Fatal(err, res.Why)
				}
				states += res.States
			}
			b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
		})
	}
}
