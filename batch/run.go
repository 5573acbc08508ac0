package batch

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oncesim/once/sim"
)

// ChunkSeeds is how many consecutive seeds make one unit of work.
const ChunkSeeds = 16

// MaxSeeds bounds the seeds of one batch: a matrix or a sweep is seeds ×
// configurations runs.
const MaxSeeds = 1_000_000

// Progress is told how many runs are done out of how many. It is called
// from the goroutine that called Run, never concurrently.
type Progress func(done, total int)

// Seeds is the range of seeds Lo..Hi, both included, that a batch (or one
// shard of it) runs.
type Seeds struct {
	Lo, Hi uint64
}

// Count is the number of seeds in the range.
func (s Seeds) Count() int {
	if s.Hi < s.Lo {
		return 0
	}
	return int(s.Hi - s.Lo + 1)
}

// Run runs every config on seeds 1..seeds with up to workers goroutines,
// one run at a time each, and returns one tally per config, in config
// order. The tallies do not depend on workers. progress (may be nil) is
// called about ten times a second and once at the end.
//
// Every config must have been built and validated (by the scenario
// loader): a config the engine rejects is a programming error and panics.
func Run(cfgs []*sim.Config, seeds, workers int, progress Progress) []Tally {
	return RunSeedsWith(cfgs, Seeds{Lo: 1, Hi: uint64(seeds)}, workers, progress, Options{})
}

// Options says how a batch answers its runs' choices.
type Options struct {
	// Swarm makes every seed a swarm run (sim.NewSwarm): each draws its
	// own fault profile from the kinds its config enables.
	Swarm bool
	// OwnRates, indexed like the configs, exempts a config from Swarm:
	// its runs keep the configured rates (a matrix row whose claims hold
	// at its own rates only, scenarios.Expectation.RateBound).
	OwnRates []bool
}

// swarm reports whether config i's runs draw a swarm profile.
func (o *Options) swarm(i int) bool {
	return o.Swarm && (i >= len(o.OwnRates) || !o.OwnRates[i])
}

// RunSeeds is Run over the seeds of r only: one shard of a batch.
//
// Each worker folds the runs it does, on worlds it reuses from seed to
// seed (sim.Runs), into tallies of its own, one per config, and the workers' tallies are merged at the end. Memory is
// therefore workers × configs tallies, whatever the number of seeds. The
// result does not depend on which worker ran which seed, nor on the order
// of the merges, because every field of a tally is a count, a minimum or
// an exact sum (ExactSum).
func RunSeeds(cfgs []*sim.Config, r Seeds, workers int, progress Progress) []Tally {
	out, _ := RunSeedsUntil(cfgs, r, workers, progress, nil, Options{})
	return out
}

// RunSeedsWith is RunSeeds with opt.
func RunSeedsWith(cfgs []*sim.Config, r Seeds, workers int, progress Progress, opt Options) []Tally {
	out, _ := RunSeedsUntil(cfgs, r, workers, progress, nil, opt)
	return out
}

// RunSeedsUntil is RunSeedsWith that stops taking work when stop is closed
// (nil: never): the chunks of seeds begun are finished, the tallies hold
// every run made, and ran counts them (the total when not stopped). The
// last progress call has done < total when it stopped.
func RunSeedsUntil(cfgs []*sim.Config, r Seeds, workers int, progress Progress, stop <-chan struct{}, opt Options) (out []Tally, ran int) {
	seeds := r.Count()
	chunks := (seeds + ChunkSeeds - 1) / ChunkSeeds
	units := len(cfgs) * chunks
	total := len(cfgs) * seeds
	workers = min(max(workers, 1), max(units, 1))
	acc := make([][]Tally, workers)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for wi := range workers {
		acc[wi] = make([]Tally, len(cfgs))
		wg.Add(1)
		go func(mine []Tally) {
			defer wg.Done()
			// One reusable world per config this worker meets (sim.Runs):
			// no allocation per run, and no trace digest nobody reads.
			runs := make([]*sim.Runs, len(cfgs))
			for {
				select {
				case <-stop: // a nil stop never is
					return
				default:
				}
				u := int(next.Add(1) - 1)
				if u >= units {
					return
				}
				ci := u / chunks
				lo := r.Lo + uint64(u%chunks*ChunkSeeds)
				hi := min(lo+ChunkSeeds-1, r.Hi)
				if runs[ci] == nil {
					r, err := sim.NewRuns(cfgs[ci])
					if err != nil {
						panic(fmt.Sprintf("batch: config %d: %v", ci, err))
					}
					r.SetSwarm(opt.swarm(ci))
					runs[ci] = r
				}
				for seed := lo; seed <= hi; seed++ {
					mine[ci].Add(seed, cfgs[ci], runs[ci].Run(seed)) // Add keeps nothing of the reused outcome
				}
				done.Add(int64(hi - lo + 1))
			}
		}(acc[wi])
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
		progress(int(done.Load()), total)
	}
	wg.Wait()
	out = make([]Tally, len(cfgs))
	for _, mine := range acc {
		for i := range out {
			out[i].Merge(&mine[i])
		}
	}
	return out, int(done.Load())
}

// Shard is part Index (0-based) of Count of a batch: which seeds it runs.
type Shard struct {
	Index, Count int
}

// Seeds is the shard's part of seeds 1..seeds: consecutive ranges of
// nearly equal size (the first seeds%Count shards take one more), so the
// shards together run every seed exactly once.
func (s Shard) Seeds(seeds int) Seeds {
	n := uint64(max(s.Count, 1))
	i := uint64(s.Index)
	total := uint64(seeds)
	size, extra := total/n, total%n
	lo := i*size + min(i, extra) + 1
	hi := lo + size - 1
	if i < extra {
		hi++
	}
	return Seeds{Lo: lo, Hi: hi}
}
