package lab

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// ExploreOptions bound a search by re-execution.
type ExploreOptions struct {
	MaxFaults int // faults per schedule
	// MaxPreemptions bounds the preemptions per schedule (a replica held
	// at a store answer), apart from the faults.
	MaxPreemptions int
	Promise        sim.Promise // 0 = the semantics' own (when Judge is nil)
	// Judge, if set, judges every schedule (Lab.JudgeFor: the scenario's
	// row); it replaces Promise.
	Judge        *Judge
	MaxSchedules int // schedules before giving up; 0 = DefaultMaxSchedules
	// Workers run schedules side by side (each with its own processes);
	// 0 = GOMAXPROCS. The result does not depend on it.
	Workers int
	// Progress, if set, is called between chunks of schedules.
	Progress func(ExploreStats)
	// Stop, if set, ends the search when closed.
	Stop <-chan struct{}
}

// runShares: each schedule may hold 1/runShares of the lab's MaxMemory
// (a chunk's results are held side by side, and the queue beside them).
const runShares = 2 * chunk

// Bytes a job is counted beside its prefix, and a result beside its
// transcript and its choices.
const (
	jobBytes    = 96
	resultBytes = 512
)

// DefaultMaxSchedules bounds a search: each schedule starts processes.
const DefaultMaxSchedules = 100_000

// chunk is how many schedules run between two merges; the merge walks
// them in order, so the verdict does not depend on the worker count.
const chunk = 64

// ExploreStats counts a search's work.
type ExploreStats struct {
	Schedules int // complete runs, each from the start
	Steps     int // events handed to lab nodes, over every run
	Offered   int // fault and preemption choices offered, over every run
	MaxDepth  int // most choices in one run
	Faults    int // the fault count being explored
}

// ExploreResult is a search's verdict.
type ExploreResult struct {
	ExploreStats
	Holds    bool
	Complete bool   // the bounds, not a budget, limited the search
	Cut      string // why it is incomplete
	Choices  []int  // the counterexample, for a sim.Sequence (nil when Holds)
	Why      string
	// Memory is the most the search held at once, as counted against
	// the lab's MaxMemory (the queue of schedules with the transcripts
	// they derive from, a chunk's results).
	Memory int64
	// Plan is the shrunk counterexample's faults, and Topology what they
	// name, once WriteExplore has shrunk it (nil before, and when Holds).
	Plan     []sim.Fault
	Topology *sim.Topology
	// Branched are the places where a schedule took a fault's or a
	// preemption's alternative (search.Result.Branched), sorted.
	Branched []search.Branch
}

// vectorChooser answers a run's choices from a prefix, then 0, and
// records what each choice offered.
type vectorChooser struct {
	prefix  []int
	answers []int
	fault   []bool // a fault or a preemption: the search branches on it
	reorder []bool // a preemption
	// branched are the places of the choices answered with a fault.
	branched []search.Branch
}

func (v *vectorChooser) Choose(c sim.Choice) int {
	isFault := c.Kind.IsFault()
	a := 0
	if i := len(v.answers); i < len(v.prefix) && isFault {
		a = v.prefix[i]
	}
	if a != 0 {
		v.branched = append(v.branched, search.BranchAt(&c))
	}
	v.answers = append(v.answers, a)
	v.fault = append(v.fault, isFault)
	v.reorder = append(v.reorder, c.Kind.IsReorder())
	return a
}

// job is one schedule to run: a prefix of choices whose last one is its
// newest fault, and the run it was derived from.
type job struct {
	faults, preempts int // spent by the prefix
	prefix           []int
	parent           []Step // the parent run's steps (nil for the fault-free run)
	last             int    // index of the newest fault (-1 for the fault-free run)
}

// outcome of one job.
type jobResult struct {
	vc     *vectorChooser
	res    *Result
	err    error
	status sim.Status
	why    string
}

// Explore runs every schedule with at most opt.MaxFaults faults, each
// from the start with fresh processes (the prefix of choices replayed).
// Schedules are taken by fault count — the fault-free one, then every
// schedule with one fault, then two — so the first violation found is
// one with the fewest faults. A schedule with k faults is derived from one
// with k-1 by turning one later fault-free choice into a fault; every
// schedule is derived exactly once.
//
// Each derived run must answer the replayed prefix exactly as the run it
// was derived from did: a node that does not is named in a
// *NondeterminismError.
func (l *Lab) Explore(sem sim.Semantics, opt ExploreOptions) (*ExploreResult, error) {
	if opt.MaxFaults < 0 || opt.MaxFaults > search.MaxFaults {
		return nil, fmt.Errorf("lab: explore: %d faults per schedule outside [0, %d]", opt.MaxFaults, search.MaxFaults)
	}
	if opt.Promise == 0 {
		opt.Promise = sem.Promise()
	}
	if opt.Judge == nil {
		opt.Judge = &Judge{Scenario: l.Scenario.Name, Promise: opt.Promise}
	}
	if opt.MaxSchedules <= 0 {
		opt.MaxSchedules = DefaultMaxSchedules
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	res := &ExploreResult{Holds: true, Complete: true}
	if opt.MaxPreemptions < 0 || opt.MaxPreemptions > search.MaxPreemptions {
		return nil, fmt.Errorf("lab: explore: %d preemptions per schedule outside [0, %d]", opt.MaxPreemptions, search.MaxPreemptions)
	}
	// Processes that declare reset are reset and handed to the next
	// schedule instead of killed (pool.go); the others start afresh.
	var pl *pool
	if !l.NoReset {
		pl = newPool()
		defer pl.close()
	}
	budget, share := l.maxMemory(), l.maxMemory()/runShares
	memCut := func(detail string) *ExploreResult {
		res.Complete, res.Cut = false, fmt.Sprintf("memory budget of %s exhausted%s", search.FormatBytes(budget), detail)
		return res
	}
	level := []job{{last: -1}}
	for faults := 0; len(level) > 0; faults++ {
		res.Faults = faults
		levelBytes := queueBytes(level)
		var nextBytes int64
		if pl != nil && pl.size() > 0 {
			// A node declared reset (the runs so far left processes in the
			// pool): check, on the first schedule of this fault count (and
			// of no fault), that a reset process answers as a fresh one.
			// The fault-free check starts fresh processes; a later one
			// starts only its restarts afresh, its processes' first
			// incarnation being checked already.
			check := level[:1]
			if faults == 1 {
				check = []job{{last: -1}, level[0]}
			}
			for i, j := range check {
				if err := l.checkReset(sem, opt.Judge, j, pl, share, faults > 1 || i > 0); err != nil {
					if errors.Is(err, errInterrupted) {
						res.Complete, res.Cut = false, "interrupted"
						return res, nil
					}
					var me *MemoryError
					if errors.As(err, &me) {
						return memCut(fmt.Sprintf(": a schedule alone passed its share: %v", me)), nil
					}
					return nil, err
				}
			}
		}
		var next []job
		for start := 0; start < len(level); start += chunk {
			if opt.Stop != nil {
				select {
				case <-opt.Stop:
					res.Complete, res.Cut = false, "interrupted"
					return res, nil
				default:
				}
			}
			batch := level[start:min(start+chunk, len(level))]
			results := l.runJobs(sem, opt, batch, pl, share)
			var batchBytes int64
			for _, r := range results {
				if r.res != nil {
					batchBytes += resultBytes + stepsBytes(r.res.Steps) + int64(len(r.vc.answers))*10
				}
			}
			for i, r := range results {
				if r.err != nil && errors.Is(r.err, errInterrupted) {
					// Ctrl-C, SIGTERM, SIGHUP: the statistics so far, cut.
					res.Complete, res.Cut = false, "interrupted"
					return res, nil
				}
				var me *MemoryError
				if errors.As(r.err, &me) {
					return memCut(fmt.Sprintf(": schedule %d alone passed its share: %v", res.Schedules+1, me)), nil
				}
				if r.err != nil {
					return nil, r.err
				}
				j := batch[i]
				if j.parent != nil {
					if err := compareSteps(j.parent, r.res.Steps, j.last); err != nil {
						return nil, err
					}
				}
				res.Schedules++
				res.Branched = search.UnionBranches(res.Branched, r.vc.branched)
				res.Steps += len(r.res.Steps)
				res.MaxDepth = max(res.MaxDepth, len(r.vc.answers))
				for _, f := range r.vc.fault {
					if f {
						res.Offered++
					}
				}
				if end := r.res.World.Ended(); end != sim.Quiescent && r.res.Stall == nil && res.Complete {
					res.Complete, res.Cut = false, fmt.Sprintf("a schedule hit the run's %s", end)
				}
				if r.status == sim.Violated {
					// A counterexample must replay: run it again, whole, and
					// name a node that answers it another way.
					again := l.runJob(sem, opt.Judge, job{prefix: r.vc.answers, last: -1}, nil, share)
					if again.err != nil {
						return nil, again.err
					}
					if err := compareSteps(r.res.Steps, again.res.Steps, -1); err != nil {
						return nil, err
					}
					res.Holds, res.Why, res.Choices = false, r.why, r.vc.answers
					return res, nil
				}
				if res.Schedules >= opt.MaxSchedules {
					res.Complete, res.Cut = false, fmt.Sprintf("schedule budget of %d exhausted", opt.MaxSchedules)
					return res, nil
				}
				kids := children(j, r, opt)
				if len(kids) > 0 {
					nextBytes += stepsBytes(r.res.Steps) // their parent's, shared
					for k := range kids {
						nextBytes += jobBytes + int64(len(kids[k].prefix))*8
					}
				}
				next = append(next, kids...)
				held := levelBytes + nextBytes + batchBytes
				res.Memory = max(res.Memory, held)
				if held > budget {
					return memCut(fmt.Sprintf(": %d schedules waiting, with the transcripts they derive from", len(level)-start-i-1+len(next))), nil
				}
			}
			if opt.Progress != nil {
				opt.Progress(res.ExploreStats)
			}
		}
		level = next
	}
	if res.Holds && res.Complete && res.Offered == 0 && opt.MaxFaults+opt.MaxPreemptions > 0 {
		// No schedule offered a fault: nothing branched, nothing is proved.
		res.Complete, res.Cut = false, "no schedule offered a choice of the fault kinds searched: nothing was explored, so nothing is proved"
	}
	return res, nil
}

// children derives, from a run, every schedule with one more fault or
// preemption, within their budgets: each such choice after the newest,
// answered 1 instead of 0.
func children(j job, r jobResult, opt ExploreOptions) []job {
	var out []job
	for i := j.last + 1; i < len(r.vc.answers); i++ {
		if !r.vc.fault[i] || r.vc.answers[i] != 0 {
			continue
		}
		c := job{faults: j.faults, preempts: j.preempts, parent: r.res.Steps, last: i}
		if r.vc.reorder[i] {
			c.preempts++
		} else {
			c.faults++
		}
		if c.faults > opt.MaxFaults || c.preempts > opt.MaxPreemptions {
			continue
		}
		c.prefix = make([]int, i+1)
		copy(c.prefix, r.vc.answers[:i])
		c.prefix[i] = 1
		out = append(out, c)
	}
	return out
}

// runJobs runs a batch side by side, each with its own session and
// processes (reset ones from pl, when the nodes declare reset), and
// returns the results in the batch's order.
func (l *Lab) runJobs(sem sim.Semantics, opt ExploreOptions, batch []job, pl *pool, share int64) []jobResult {
	results := make([]jobResult, len(batch))
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(opt.Workers, len(batch)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = l.runJob(sem, opt.Judge, batch[i], pl, share)
			}
		}()
	}
	for i := range batch {
		work <- i
	}
	close(work)
	wg.Wait()
	return results
}

// checkReset runs j twice, one after the other: with fresh processes,
// then with the processes that run left reset in pl (if the nodes
// declare reset; else it does nothing more). The two must answer every
// step alike: a reset that forgets less than a fresh start is named.
// Explore calls it on the fault-free schedule and the first schedule of
// every fault count. With restartsOnly, the fresh run's processes start
// as reset ones from pl (their first incarnation was checked on the
// fault-free schedule) and only its restarts are fresh: a check costs a
// process per replica and restart, not per replica.
func (l *Lab) checkReset(sem sim.Semantics, judge *Judge, j job, pl *pool, share int64, restartsOnly bool) error {
	fresh := newPool()
	defer fresh.close()
	fresh.keepOnly = true // every start spawns; the end resets and keeps
	if restartsOnly {
		fresh.source = pl
	}
	a := l.runJob(sem, judge, j, fresh, share)
	if a.err != nil {
		return a.err
	}
	if fresh.size() == 0 {
		return nil // no node declared reset
	}
	fresh.keepOnly, fresh.source = false, nil
	b := l.runJob(sem, judge, j, fresh, share)
	if b.err != nil {
		return b.err
	}
	if err := compareSteps(a.res.Steps, b.res.Steps, -1); err != nil {
		var ne *NondeterminismError
		if errors.As(err, &ne) {
			// Reset is to blame only if fresh processes agree: run the
			// schedule fresh once more.
			again := newPool()
			defer again.close()
			again.keepOnly = true
			c := l.runJob(sem, judge, j, again, share)
			if c.err != nil {
				return c.err
			}
			if err2 := compareSteps(a.res.Steps, c.res.Steps, -1); err2 != nil {
				return err2
			}
			ne.AfterReset = true
		}
		return err
	}
	pl.adopt(fresh)
	return nil
}

func (l *Lab) runJob(sem sim.Semantics, judge *Judge, j job, pl *pool, share int64) jobResult {
	vc := &vectorChooser{prefix: j.prefix}
	r, err := l.run(sem, vc, nil, func() int { return len(vc.answers) }, pl, share)
	if err != nil {
		return jobResult{err: err}
	}
	status, why := judge.RunVerdict(r)
	return jobResult{vc: vc, res: r, status: status, why: why}
}

// Faults returns the faults a counterexample's choices make, by identity.
func (l *Lab) Faults(sem sim.Semantics, choices []int) ([]sim.Fault, error) {
	rec := sim.NewRecording(&sim.Sequence{Answers: choices})
	if _, err := l.Run(sem, rec, nil); err != nil {
		return nil, err
	}
	return rec.Faults, nil
}

// queueBytes is what a level of jobs holds: their prefixes, and the
// transcripts they derive from, each counted once.
func queueBytes(level []job) int64 {
	var n int64
	seen := map[*Step]bool{}
	for i := range level {
		n += jobBytes + int64(len(level[i].prefix))*8
		if p := level[i].parent; len(p) > 0 && !seen[&p[0]] {
			seen[&p[0]] = true
			n += stepsBytes(p)
		}
	}
	return n
}
