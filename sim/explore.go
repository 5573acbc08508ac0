package sim

import "fmt"

// KindSet is a set of fault kinds.
type KindSet uint8

// Has reports whether k is in the set.
func (s KindSet) Has(k ChoiceKind) bool { return s&(1<<k) != 0 }

// With returns the set plus k.
func (s KindSet) With(k ChoiceKind) KindSet { return s | 1<<k }

// ExploreOptions bound an exhaustive search.
type ExploreOptions struct {
	MaxFaults int     // faults per schedule (each non-default fault choice costs 1)
	Promise   Promise // the property checked; 0 = the semantics' own promise
	Kinds     KindSet // fault kinds to enumerate; 0 = all
	MaxDepth  int     // engine steps per schedule; 0 = 100 000
	MaxStates int     // distinct states before giving up; 0 = 20 000 000
	// Stateless turns the state cache off: every schedule is executed to
	// its end. It exists to check, in tests, that the cache is a sound
	// reduction (same verdicts, fewer transitions).
	Stateless bool
	// Audit keeps a copy of the first world seen under each fingerprint
	// and, whenever the cache would skip a state, runs both worlds to
	// their end without further faults and compares what they did. Any
	// difference means the fingerprint merged two states that behave
	// differently; it is reported in ExploreResult.AuditFailure. A test
	// aid: slow, and it keeps every world in memory.
	Audit bool
	// Progress, if set, is called every ProgressEvery new states.
	Progress      func(ExploreStats)
	ProgressEvery int
}

// ExploreStats counts the work of a search.
type ExploreStats struct {
	States      int // distinct states (fingerprints) visited
	Transitions int // steps executed, revisits included
	Schedules   int // complete schedules (runs that reached their end)
	MaxDepth    int // deepest schedule, in engine steps
	Revisits    int // successors skipped because their state was already explored
}

// ExploreResult is the verdict of a search.
type ExploreResult struct {
	ExploreStats
	Holds    bool   // no schedule within the bounds violates the promise or an invariant
	Complete bool   // the bounds, not a budget, limited the search
	Cut      string // why the search is incomplete, if it is
	// Choices reproduces the counterexample: feed them in order to a
	// Sequence chooser (nil when Holds).
	Choices []int
	Why     string // the violation
	// AuditFailure describes the first unsound merge Audit found.
	AuditFailure string
}

// Sequence is a Chooser that answers choices from a fixed list, in order,
// then 0. It replays a path found by the explorer.
type Sequence struct {
	Answers []int
	next    int
}

// Choose implements Chooser.
func (s *Sequence) Choose(c Choice) int {
	if s.next >= len(s.Answers) {
		return 0
	}
	v := s.Answers[s.next]
	s.next++
	if v < 0 || v >= int(c.N) {
		return 0
	}
	return v
}

// stepChooser enumerates the choices of one engine step as an odometer:
// positions before len(prefix) replay prefix, later ones answer 0 and
// record how many alternatives they offered.
type stepChooser struct {
	prefix  []int
	answers []int
	arity   []int
	fault   []bool
	pos     int
	budget  int // faults still allowed in this step
	kinds   KindSet
}

func (s *stepChooser) reset(prefix []int, budget int) {
	s.prefix, s.answers, s.arity, s.fault, s.pos, s.budget = prefix, s.answers[:0], s.arity[:0], s.fault[:0], 0, budget
}

func (s *stepChooser) Choose(c Choice) int {
	n := 1
	isFault := c.Kind.IsFault()
	if isFault && s.kinds.Has(c.Kind) {
		n = 2
	}
	v := 0
	if s.pos < len(s.prefix) {
		v = s.prefix[s.pos]
	}
	if v >= n || (v != 0 && isFault && s.budget <= 0) {
		v = 0
	}
	if v != 0 && isFault {
		s.budget--
	}
	s.answers = append(s.answers, v)
	s.arity = append(s.arity, n)
	s.fault = append(s.fault, isFault)
	s.pos++
	return v
}

// next writes into dst the alternative vector after the one just run,
// within the fault budget of the step; it returns false when the step is
// exhausted.
func (s *stepChooser) next(dst []int, budget int) ([]int, bool) {
	vec := append(dst[:0], s.answers...)
	for i := len(vec) - 1; i >= 0; i-- {
		if vec[i]+1 >= s.arity[i] {
			continue
		}
		used := 0
		for j := 0; j < i; j++ {
			if vec[j] != 0 && s.fault[j] {
				used++
			}
		}
		if s.fault[i] && used+1 > budget {
			continue
		}
		vec[i]++
		return vec[:i+1], true
	}
	return vec[:0], false
}

type frame struct {
	world  *World
	faults int   // faults used to reach world
	vec    []int // the next alternative vector to try from world
	via    []int // the vector that led here from the parent
	done   bool
}

// Explore searches every schedule of cfg with at most opt.MaxFaults faults,
// depth first, skipping states already explored with no more faults used.
// It stops at the first violation (the caller shrinks it).
//
// The one reduction is that state cache, and it is sound: a state's future
// depends only on what its fingerprint encodes (see World.AppendState), and
// a state revisited with at least as many faults used has a subset of the
// futures already explored. No partial-order reduction is needed because
// the explorer never branches on the order of events — the engine orders
// them by (time, sequence) — only on fault choices; two fault choices that
// lead to the same state (losing a message to a crashed node, or letting it
// be dropped there) merge through the cache. TestExploreStateCacheIsSound
// checks the verdicts against a stateless search.
//
// Every step of the engine is a transition; the choices made inside one
// step (drop? duplicate? slow? crash?) are enumerated as an odometer, so
// the explorer drives the same engine and the same Chooser interface as a
// random run. Jitter is not explored: the fault-free order delivers
// messages before the timers that wait for them, and "slow" (a fault) is
// how a timer overtakes a message.
func Explore(cfg *Config, opt ExploreOptions) (*ExploreResult, error) {
	if opt.Promise == 0 {
		opt.Promise = cfg.Semantics.Promise()
	}
	if opt.Kinds == 0 {
		opt.Kinds = AllFaultKinds
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 100_000
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = 20_000_000
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = 100_000
	}
	root, err := NewWorld(cfg, Defaults{}, nil)
	if err != nil {
		return nil, err
	}
	res := &ExploreResult{Holds: true, Complete: true}
	visited := newFingerprintSet()
	audited := map[Fingerprint]*World{}
	visited.add(root.Fingerprint(), 0)
	res.States = 1
	sc := &stepChooser{kinds: opt.Kinds}
	var pool []*World
	var frames []*frame // popped frames, reused with their buffers
	stack := []*frame{{world: root}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		if f.done {
			pool = append(pool, f.world)
			frames = append(frames, f)
			stack = stack[:len(stack)-1]
			continue
		}
		var child *World
		if n := len(pool); n > 0 {
			child, pool = pool[n-1], pool[:n-1]
		} else {
			child = &World{}
		}
		child.CopyFrom(f.world)
		sc.reset(f.vec, opt.MaxFaults-f.faults)
		child.SetChooser(sc)
		stepped := child.Step()
		res.Transitions++
		via := sc.answers // valid until the next step; copied when a frame keeps it
		used := f.faults + (opt.MaxFaults - f.faults - sc.budget)
		var more bool
		f.vec, more = sc.next(f.vec, opt.MaxFaults-f.faults)
		f.done = !more

		depth := len(stack)
		if stepped && child.q.len() == 0 {
			child.Step() // mark it quiescent
		}
		if !stepped || child.end != Running {
			res.Schedules++
			res.MaxDepth = max(res.MaxDepth, depth)
			status, why := child.JudgeAgainst(opt.Promise)
			switch {
			case status == Violated:
				res.Holds, res.Why = false, why
				res.Choices = pathChoices(stack, via)
				return res, nil
			case child.end != Quiescent:
				res.Complete = false
				res.Cut = fmt.Sprintf("a schedule hit the run's %s", child.end)
			}
			pool = append(pool, child)
			continue
		}
		if status, why := child.JudgeAgainst(opt.Promise); status == Violated {
			res.Holds, res.Why = false, why
			res.Choices = pathChoices(stack, via)
			return res, nil
		}
		fp := child.Fingerprint()
		if opt.Audit {
			if first, ok := audited[fp]; ok {
				if why := sameFuture(first, child); why != "" && res.AuditFailure == "" {
					res.AuditFailure = why
				}
			} else {
				audited[fp] = child.Clone()
			}
		}
		if !opt.Stateless && !visited.add(fp, used) {
			res.Revisits++
			pool = append(pool, child)
			continue
		}
		res.States++
		if opt.Progress != nil && res.States%opt.ProgressEvery == 0 {
			opt.Progress(res.ExploreStats)
		}
		if res.States >= opt.MaxStates {
			res.Complete = false
			res.Cut = fmt.Sprintf("state budget of %d exhausted", opt.MaxStates)
			return res, nil
		}
		if depth >= opt.MaxDepth {
			res.Complete = false
			res.Cut = fmt.Sprintf("depth budget of %d steps exhausted", opt.MaxDepth)
			pool = append(pool, child)
			continue
		}
		res.MaxDepth = max(res.MaxDepth, depth)
		var nf *frame
		if n := len(frames); n > 0 {
			nf, frames = frames[n-1], frames[:n-1]
		} else {
			nf = &frame{}
		}
		*nf = frame{world: child, faults: used, via: append(nf.via[:0], via...), vec: nf.vec[:0]}
		stack = append(stack, nf)
	}
	return res, nil
}

// pathChoices concatenates the choice vectors from the root to a state.
func pathChoices(stack []*frame, last []int) []int {
	var out []int
	for _, f := range stack[1:] {
		out = append(out, f.via...)
	}
	return append(out, last...)
}

// fingerprintSet maps explored states to the fewest faults used to reach
// them. A state reached again with fewer faults used is explored again: it
// has more budget left, so more schedules below it.
type fingerprintSet struct {
	m map[Fingerprint]uint8
}

func newFingerprintSet() *fingerprintSet {
	return &fingerprintSet{m: make(map[Fingerprint]uint8, 1024)}
}

// add records fp reached with used faults; it reports whether the state
// must be explored (new, or reached with fewer faults than before).
func (s *fingerprintSet) add(fp Fingerprint, used int) bool {
	u := uint8(min(used, 255))
	if prev, ok := s.m[fp]; ok && prev <= u {
		return false
	}
	s.m[fp] = u
	return true
}

// sameFuture runs copies of a and b to their end with no further faults
// and says how their outcomes differ, or returns "".
func sameFuture(a, b *World) string {
	ra, rb := a.Clone(), b.Clone()
	ra.SetChooser(Defaults{})
	rb.SetChooser(Defaults{})
	ra.SetRecorder(nil)
	rb.SetRecorder(nil)
	oa, ob := ra.Run(), rb.Run()
	if oa.End != ob.End {
		return fmt.Sprintf("equal fingerprints, different ends: %s vs %s", oa.End, ob.End)
	}
	if oa.Status != ob.Status {
		return fmt.Sprintf("equal fingerprints, different verdicts: %s (%s) vs %s (%s)", oa.Status, oa.Why, ob.Status, ob.Why)
	}
	for i := range oa.Ops {
		x, y := &oa.Ops[i], &ob.Ops[i]
		if x.Effects != y.Effects || x.Verdict != y.Verdict || x.DistinctOutcomes != y.DistinctOutcomes {
			return fmt.Sprintf("equal fingerprints, %s ends with %d effects (%s) vs %d (%s)", x.Op, x.Effects, x.Verdict, y.Effects, y.Verdict)
		}
	}
	if ra.now-a.now != rb.now-b.now {
		return fmt.Sprintf("equal fingerprints, the runs end %s vs %s later", ra.now-a.now, rb.now-b.now)
	}
	if ra.events-a.events != rb.events-b.events {
		return fmt.Sprintf("equal fingerprints, %d vs %d further events", ra.events-a.events, rb.events-b.events)
	}
	return ""
}
