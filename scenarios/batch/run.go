package batch

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oncesim/once/sim"
)

// ChunkSeeds is how many consecutive seeds make one unit of work (see the
// package documentation: the chunks, not the workers, fix the order of
// the fold).
const ChunkSeeds = 16

// MaxSeeds bounds the seeds of one batch: a matrix or a sweep is seeds ×
// configurations runs.
const MaxSeeds = 1_000_000

// Progress is told how many runs are done out of how many. It is called
// from the goroutine that called Run, never concurrently.
type Progress func(done, total int)

// Run runs every config on seeds 1..seeds with up to workers goroutines,
// one run at a time each, and returns one tally per config, in config
// order. The tallies do not depend on workers. progress (may be nil) is
// called about ten times a second and once at the end.
//
// Every config must have been built and validated (by the scenario
// loader): a config the engine rejects is a programming error and panics.
func Run(cfgs []*sim.Config, seeds, workers int, progress Progress) []Tally {
	chunks := (seeds + ChunkSeeds - 1) / ChunkSeeds
	units := make([]Tally, len(cfgs)*chunks)
	total := len(cfgs) * seeds
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range min(max(workers, 1), len(units)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				u := int(next.Add(1) - 1)
				if u >= len(units) {
					return
				}
				cfg := cfgs[u/chunks]
				lo := uint64(u%chunks*ChunkSeeds + 1)
				hi := min(lo+ChunkSeeds-1, uint64(seeds))
				for seed := lo; seed <= hi; seed++ {
					w, err := sim.NewWorld(cfg, sim.NewRandom(seed), nil)
					if err != nil {
						panic(fmt.Sprintf("batch: seed %d: %v", seed, err))
					}
					units[u].Add(seed, w.Run())
				}
				done.Add(int64(hi - lo + 1))
			}
		}()
	}
	if progress != nil {
		finished := make(chan struct{})
		go func() { wg.Wait(); close(finished) }()
		tick := time.NewTicker(100 * time.Millisecond)
		for wait := true; wait; {
			select {
			case <-finished:
				wait = false
			case <-tick.C:
				progress(int(done.Load()), total)
			}
		}
		tick.Stop()
		progress(total, total)
	}
	wg.Wait()
	out := make([]Tally, len(cfgs))
	for i := range out {
		for c := range chunks {
			out[i].Merge(&units[i*chunks+c])
		}
	}
	return out
}
