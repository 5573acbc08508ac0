package lab

import (
	"fmt"

	"github.com/oncesim/once/sim"
)

// ExploreOptions bound a search by re-execution.
type ExploreOptions struct {
	MaxFaults    int         // faults per schedule
	Promise      sim.Promise // 0 = the semantics' own
	MaxSchedules int         // schedules before giving up; 0 = DefaultMaxSchedules
	// Progress, if set, is called after every schedule.
	Progress func(ExploreStats)
	// Stop, if set, ends the search when closed.
	Stop <-chan struct{}
}

// DefaultMaxSchedules bounds a search: each schedule starts processes.
const DefaultMaxSchedules = 100_000

// ExploreStats counts a search's work.
type ExploreStats struct {
	Schedules int // complete runs, each with fresh processes
	Steps     int // events handed to lab nodes, over every run
	MaxDepth  int // most fault choices in one run
}

// ExploreResult is a search's verdict.
type ExploreResult struct {
	ExploreStats
	Holds    bool
	Complete bool   // the bounds, not a budget, limited the search
	Cut      string // why it is incomplete
	Choices  []int  // the counterexample, for a sim.Sequence (nil when Holds)
	Why      string
}

// vectorChooser answers a run's choices from a prefix, then 0, recording
// what each choice offered: the explorer's odometer over whole runs.
type vectorChooser struct {
	prefix  []int
	answers []int
	arity   []int
	fault   []bool
	budget  int
}

func (v *vectorChooser) Choose(c sim.Choice) int {
	n, isFault := 1, c.Kind.IsFault()
	if isFault {
		n = 2
	}
	a := 0
	if i := len(v.answers); i < len(v.prefix) {
		a = v.prefix[i]
	}
	if a >= n || (a != 0 && isFault && v.budget <= 0) {
		a = 0
	}
	if a != 0 && isFault {
		v.budget--
	}
	v.answers = append(v.answers, a)
	v.arity = append(v.arity, n)
	v.fault = append(v.fault, isFault)
	return a
}

// next returns the vector after the one just run, within maxFaults, and
// the index of the choice it changed; ok is false when none is left.
func (v *vectorChooser) next(maxFaults int) (vec []int, changed int, ok bool) {
	vec = append([]int(nil), v.answers...)
	for i := len(vec) - 1; i >= 0; i-- {
		if vec[i]+1 >= v.arity[i] {
			continue
		}
		used := 0
		for j := 0; j < i; j++ {
			if vec[j] != 0 && v.fault[j] {
				used++
			}
		}
		if v.fault[i] && used+1 > maxFaults {
			continue
		}
		vec[i]++
		return vec[:i+1], i, true
	}
	return nil, 0, false
}

// Explore runs every schedule with at most opt.MaxFaults faults, depth
// first, each from the start with fresh processes (the prefix of choices
// replayed). It stops at the first violation. It also checks, run by run,
// that the nodes answer the replayed prefix exactly as before: a node
// that does not is named in a *NondeterminismError.
func (l *Lab) Explore(sem sim.Semantics, opt ExploreOptions) (*ExploreResult, error) {
	if opt.MaxFaults < 0 || opt.MaxFaults > sim.MaxExploreFaults {
		return nil, fmt.Errorf("lab: explore: %d faults per schedule outside [0, %d]", opt.MaxFaults, sim.MaxExploreFaults)
	}
	if opt.Promise == 0 {
		opt.Promise = sem.Promise()
	}
	if opt.MaxSchedules <= 0 {
		opt.MaxSchedules = DefaultMaxSchedules
	}
	res := &ExploreResult{Holds: true, Complete: true}
	var prefix []int
	var prev []Step
	changed := -1
	for {
		if opt.Stop != nil {
			select {
			case <-opt.Stop:
				res.Complete, res.Cut = false, "interrupted"
				return res, nil
			default:
			}
		}
		vc := &vectorChooser{prefix: prefix, budget: opt.MaxFaults}
		r, err := l.run(sem, vc, nil, func() int { return len(vc.answers) })
		if err != nil {
			return nil, err
		}
		if prev != nil {
			if err := compareSteps(prev, r.Steps, changed); err != nil {
				return nil, err
			}
		}
		prev = r.Steps
		res.Schedules++
		res.Steps += len(r.Steps)
		res.MaxDepth = max(res.MaxDepth, len(vc.answers))
		if opt.Progress != nil {
			opt.Progress(res.ExploreStats)
		}
		if r.World.Ended() != sim.Quiescent {
			res.Complete, res.Cut = false, fmt.Sprintf("a schedule hit the run's %s", r.World.Ended())
		}
		if status, why := r.World.JudgeAgainst(opt.Promise); status == sim.Violated {
			res.Holds, res.Why, res.Choices = false, why, vc.answers
			return res, nil
		}
		var ok bool
		prefix, changed, ok = vc.next(opt.MaxFaults)
		if !ok {
			return res, nil
		}
		if res.Schedules >= opt.MaxSchedules {
			res.Complete, res.Cut = false, fmt.Sprintf("schedule budget of %d exhausted", opt.MaxSchedules)
			return res, nil
		}
	}
}

// Faults returns the faults a counterexample's choices make, by identity.
func (l *Lab) Faults(sem sim.Semantics, choices []int) ([]sim.Fault, error) {
	rec := sim.NewRecording(&sim.Sequence{Answers: choices})
	if _, err := l.Run(sem, rec, nil); err != nil {
		return nil, err
	}
	return rec.Faults, nil
}
