package sim

import (
	"fmt"
	"unsafe"
)

// KindSet is a set of fault kinds.
type KindSet uint8

// Has reports whether k is in the set.
func (s KindSet) Has(k ChoiceKind) bool { return s&(1<<k) != 0 }

// With returns the set plus k.
func (s KindSet) With(k ChoiceKind) KindSet { return s | 1<<k }

// Default budgets of a search.
const (
	DefaultExploreMaxDepth  = 100_000
	DefaultExploreMaxStates = 20_000_000
	DefaultExploreMaxMemory = int64(2 << 30) // 2 GiB, well under a laptop's memory
	// MaxExploreFaults is the most faults one schedule of a search may
	// use; flags and scenario files (explore.max-faults, expect.explore)
	// are checked against it.
	MaxExploreFaults = 20
	// MaxExplorePreemptions is the most preemptions one schedule may use.
	MaxExplorePreemptions = 10
)

// stopCheckEvery is how many iterations of the search pass between two
// looks at ExploreOptions.Stop.
const stopCheckEvery = 64

// ExploreOptions bound an exhaustive search.
type ExploreOptions struct {
	MaxFaults int // faults per schedule (each non-default fault choice costs 1)
	// MaxPreemptions bounds the interleavings per schedule: each preempt
	// choice taken (a handler descheduled between two store steps) costs
	// 1, as CHESS and Coyote bound preemptions. 0 explores no interleaving
	// but the run-to-completion order.
	MaxPreemptions int
	Promise        Promise // the property checked; 0 = the semantics' own promise
	Kinds          KindSet // fault kinds to enumerate; 0 = all
	MaxDepth       int     // engine steps per schedule; 0 = DefaultExploreMaxDepth
	MaxStates      int     // distinct states before giving up; 0 = DefaultExploreMaxStates
	// MaxMemory is the budget, in bytes, of what the search holds (visited
	// set, stack, world buffers), counted from sizes rather than read from
	// the runtime so the cut is deterministic; 0 = DefaultExploreMaxMemory.
	MaxMemory int64
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
	// Stop, if set, ends the search when it is closed (checked every
	// stopCheckEvery iterations): the result is incomplete, cut
	// "interrupted", with the statistics so far.
	Stop <-chan struct{}
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
	// Replayed counts steps re-executed to rebuild a world the stack did
	// not keep; they are not transitions.
	Replayed int
	Worlds   int   // world buffers the search allocated (the most alive at once)
	Memory   int64 // the most bytes the search held at once, as counted for MaxMemory
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
	cost    []budgetKind // what a non-default answer at each position costs
	pos     int
	budget  [numBudgets]int // faults and preemptions still allowed in this step
	kinds   KindSet
}

// budgetKind says which budget a non-default answer is charged to.
type budgetKind uint8

const (
	costFree    budgetKind = iota // jitter: not enumerated
	costFault                     // a fault: the fault budget
	costPreempt                   // an interleaving: the preemption budget
	numBudgets
)

func costOf(k ChoiceKind) budgetKind {
	switch {
	case k.IsReorder():
		return costPreempt
	case k.IsFault():
		return costFault
	}
	return costFree
}

func (s *stepChooser) reset(prefix []int, budget [numBudgets]int) {
	s.prefix, s.answers, s.arity, s.cost, s.pos, s.budget = prefix, s.answers[:0], s.arity[:0], s.cost[:0], 0, budget
}

func (s *stepChooser) Choose(c Choice) int {
	n := 1
	cost := costOf(c.Kind)
	switch cost {
	case costFault:
		if s.kinds.Has(c.Kind) {
			n = 2
		}
	case costPreempt:
		n = 2 // offered whenever the search has a preemption budget
	}
	v := 0
	if s.pos < len(s.prefix) {
		v = s.prefix[s.pos]
	}
	if v >= n || (v != 0 && cost != costFree && s.budget[cost] <= 0) {
		v = 0
	}
	if v != 0 && cost != costFree {
		s.budget[cost]--
	}
	s.answers = append(s.answers, v)
	s.arity = append(s.arity, n)
	s.cost = append(s.cost, cost)
	s.pos++
	return v
}

// next writes into dst the alternative vector after the one just run,
// within the budgets of the step; it returns false when the step is
// exhausted.
func (s *stepChooser) next(dst []int, budget [numBudgets]int) ([]int, bool) {
	vec := append(dst[:0], s.answers...)
	for i := len(vec) - 1; i >= 0; i-- {
		if vec[i]+1 >= s.arity[i] {
			continue
		}
		c := s.cost[i]
		if c != costFree {
			used := 0
			for j := 0; j < i; j++ {
				if vec[j] != 0 && s.cost[j] == c {
					used++
				}
			}
			if used+1 > budget[c] {
				continue
			}
		}
		vec[i]++
		return vec[:i+1], true
	}
	return vec[:0], false
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
//
// Memory grows with the distinct states, not with depth times the size of
// a world: the stack keeps, per level, only the choices that led there and
// the next alternative to try; a world is kept every checkpointEvery
// levels and for the last window levels, and any other level's world is
// rebuilt, when it is needed again, by replaying the recorded choices from
// the nearest kept world (see explorer.restore). The search counts the
// bytes it holds (visited set, stack, world buffers) and stops at
// opt.MaxMemory, like at any other budget.
func Explore(cfg *Config, opt ExploreOptions) (*ExploreResult, error) {
	return explore(cfg, opt, checkpointEvery, window)
}

// explore is Explore with the checkpoint spacing and window as parameters
// (tests shrink them to force replays; window must be ≥ every).
func explore(cfg *Config, opt ExploreOptions, every, window int) (*ExploreResult, error) {
	if opt.MaxFaults < 0 || opt.MaxFaults > MaxExploreFaults {
		return nil, fmt.Errorf("sim: explore: %d faults per schedule outside [0, %d]", opt.MaxFaults, MaxExploreFaults)
	}
	if opt.MaxPreemptions < 0 || opt.MaxPreemptions > MaxExplorePreemptions {
		return nil, fmt.Errorf("sim: explore: %d preemptions per schedule outside [0, %d]", opt.MaxPreemptions, MaxExplorePreemptions)
	}
	if opt.Promise == 0 {
		opt.Promise = cfg.Semantics.Promise()
	}
	if opt.Kinds == 0 {
		opt.Kinds = AllFaultKinds
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultExploreMaxDepth
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = DefaultExploreMaxStates
	}
	if opt.MaxMemory <= 0 {
		opt.MaxMemory = DefaultExploreMaxMemory
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = 100_000
	}
	root, err := NewWorld(cfg, Defaults{}, nil)
	if err != nil {
		return nil, err
	}
	e := &explorer{
		opt:     opt,
		every:   every,
		window:  window,
		res:     &ExploreResult{Holds: true, Complete: true},
		visited: newFingerprintSet(),
		sc:      stepChooser{kinds: opt.Kinds},
		replay:  stepChooser{kinds: opt.Kinds},
	}
	if opt.Audit {
		e.audited = map[Fingerprint]*World{}
	}
	rootBuf := e.acquire()
	rootBuf.w = root
	e.account(rootBuf)
	e.visited.add(root.fingerprintWith(&e.fpBuf), 0)
	e.res.States = 1
	e.push(rootBuf, spent{}, nil)
	e.search()
	e.res.Memory = e.peak
	return e.res, nil
}

// Checkpointing of the explorer's stack: the world of a level is kept when
// the level is a multiple of checkpointEvery or within window levels of the
// top; rebuilding another level replays fewer than checkpointEvery steps.
const (
	checkpointEvery = 64
	window          = 64
)

// worldBuf is a world the explorer owns, with the bytes it was last
// counted at.
type worldBuf struct {
	w     *World
	bytes int64
}

// frame is one level of the depth-first stack.
type frame struct {
	world    *worldBuf // nil when released; restore rebuilds it
	spent    spent     // faults and preemptions used to reach this level
	vec      []int     // the next alternative vector to try from here
	viaStart int       // path[viaStart:viaEnd] led here from the parent
	viaEnd   int
	done     bool // every alternative tried
}

// spent counts what a path used of each budget.
type spent [numBudgets]int

// left is what the search's bounds still allow after s.
func (e *explorer) left(s spent) [numBudgets]int {
	var b [numBudgets]int
	b[costFault] = e.opt.MaxFaults - s[costFault]
	b[costPreempt] = e.opt.MaxPreemptions - s[costPreempt]
	return b
}

// stateKey is the key of a state in the visited set. The set keeps, per
// key, the fewest faults used to reach it, which is sound for one budget
// only; the preemptions used are therefore part of the key, so a state
// reached with a different number of preemptions is a different entry
// and never skipped for one reached with more preemption budget left.
func stateKey(fp Fingerprint, s spent) Fingerprint {
	if s[costPreempt] == 0 {
		return fp
	}
	return Fingerprint(splitmix(uint64(fp) ^ uint64(s[costPreempt])*0x9e3779b97f4a7c15))
}

// explorer is the state of one search.
type explorer struct {
	opt     ExploreOptions
	every   int // a level that is a multiple of every keeps its world
	window  int // so do the top window levels
	res     *ExploreResult
	visited *fingerprintSet
	audited map[Fingerprint]*World
	sc      stepChooser // enumerates the alternatives of a step
	replay  stepChooser // replays a recorded step while restoring
	stack   []*frame
	spare   []*frame // popped frames, reused with their buffers
	path    []int    // the choices of every level, root first
	pool    []*worldBuf
	fpBuf   []byte

	worldBytes int64 // counted bytes of every world buffer, pooled ones included
	frameBytes int64 // frames and their alternative vectors
	peak       int64 // the most bytes counted at once
}

func (e *explorer) search() {
	opt, res := &e.opt, e.res
	for iter := 0; len(e.stack) > 0; iter++ {
		if opt.Stop != nil && iter%stopCheckEvery == 0 {
			select {
			case <-opt.Stop:
				res.Complete, res.Cut = false, "interrupted"
				return
			default:
			}
		}
		top := len(e.stack) - 1
		f := e.stack[top]
		if f.done {
			e.pop()
			continue
		}
		if f.world == nil {
			e.restore(top)
		}
		child := e.acquire()
		child.w.CopyFrom(f.world.w)
		left := e.left(f.spent)
		e.sc.reset(f.vec, left)
		child.w.SetChooser(&e.sc)
		stepped := child.w.Step()
		res.Transitions++
		via := e.sc.answers // valid until the next step; copied onto the path when pushed
		used := f.spent
		for c := range used {
			used[c] += left[c] - e.sc.budget[c]
		}
		var more bool
		oldCap := cap(f.vec)
		f.vec, more = e.sc.next(f.vec, left)
		e.frameBytes += int64(cap(f.vec)-oldCap) * 8
		f.done = !more
		if f.done && top%e.every != 0 {
			e.release(f) // no alternative left to copy it for
		}

		depth := len(e.stack)
		cw := child.w
		if stepped && cw.q.len() == 0 {
			cw.Step() // mark it quiescent
		}
		if !stepped || cw.end != Running {
			res.Schedules++
			res.MaxDepth = max(res.MaxDepth, depth)
			status, why := cw.JudgeAgainst(opt.Promise)
			switch {
			case status == Violated:
				res.Holds, res.Why = false, why
				res.Choices = append(append([]int(nil), e.path...), via...)
				return
			case cw.end != Quiescent:
				res.Complete = false
				res.Cut = fmt.Sprintf("a schedule hit the run's %s", cw.end)
			}
			e.pool = append(e.pool, child)
			continue
		}
		if status, why := cw.JudgeAgainst(opt.Promise); status == Violated {
			res.Holds, res.Why = false, why
			res.Choices = append(append([]int(nil), e.path...), via...)
			return
		}
		fp := cw.fingerprintWith(&e.fpBuf)
		if opt.Audit {
			if first, ok := e.audited[fp]; ok {
				if why := sameFuture(first, cw); why != "" && res.AuditFailure == "" {
					res.AuditFailure = why
				}
			} else {
				e.audited[fp] = cw.Clone()
			}
		}
		if !opt.Stateless && !e.visited.add(stateKey(fp, used), used[costFault]) {
			res.Revisits++
			e.pool = append(e.pool, child)
			continue
		}
		res.States++
		e.account(child)
		if opt.Progress != nil && res.States%opt.ProgressEvery == 0 {
			res.Memory = e.peak
			opt.Progress(res.ExploreStats)
		}
		if res.States >= opt.MaxStates {
			res.Complete = false
			res.Cut = fmt.Sprintf("state budget of %d exhausted", opt.MaxStates)
			return
		}
		if e.peak > opt.MaxMemory {
			res.Complete = false
			res.Cut = fmt.Sprintf("memory budget of %s exhausted", FormatBytes(opt.MaxMemory))
			return
		}
		if depth >= opt.MaxDepth {
			res.Complete = false
			res.Cut = fmt.Sprintf("depth budget of %d steps exhausted", opt.MaxDepth)
			e.pool = append(e.pool, child)
			continue
		}
		res.MaxDepth = max(res.MaxDepth, depth)
		e.push(child, used, via)
	}
}

// push adds a level holding world b, reached with used faults and
// preemptions by the choices via, and releases the world of the level that
// leaves the window.
func (e *explorer) push(b *worldBuf, used spent, via []int) {
	var nf *frame
	if n := len(e.spare); n > 0 {
		nf, e.spare = e.spare[n-1], e.spare[:n-1]
	} else {
		nf = &frame{}
		e.frameBytes += int64(unsafe.Sizeof(frame{}))
	}
	start := len(e.path)
	oldCap := cap(e.path)
	e.path = append(e.path, via...)
	e.frameBytes += int64(cap(e.path)-oldCap) * 8
	*nf = frame{world: b, spent: used, vec: nf.vec[:0], viaStart: start, viaEnd: len(e.path)}
	oldCap = cap(e.stack)
	e.stack = append(e.stack, nf)
	e.frameBytes += int64(cap(e.stack)-oldCap) * 8
	if old := len(e.stack) - 1 - e.window; old > 0 && old%e.every != 0 {
		e.release(e.stack[old])
	}
	e.note()
}

// pop removes the top level.
func (e *explorer) pop() {
	top := len(e.stack) - 1
	f := e.stack[top]
	e.release(f)
	e.path = e.path[:f.viaStart]
	e.spare = append(e.spare, f)
	e.stack = e.stack[:top]
}

// release returns a level's world to the pool.
func (e *explorer) release(f *frame) {
	if f.world != nil {
		e.pool = append(e.pool, f.world)
		f.world = nil
	}
}

// acquire takes a world buffer from the pool, or makes one.
func (e *explorer) acquire() *worldBuf {
	if n := len(e.pool); n > 0 {
		b := e.pool[n-1]
		e.pool = e.pool[:n-1]
		return b
	}
	e.res.Worlds++
	e.worldBytes += int64(unsafe.Sizeof(worldBuf{}))
	return &worldBuf{w: &World{}}
}

// account recounts b's bytes after its world changed.
func (e *explorer) account(b *worldBuf) {
	n := b.w.footprint()
	e.worldBytes += n - b.bytes
	b.bytes = n
	e.note()
}

// note records the peak of the counted bytes.
func (e *explorer) note() {
	e.peak = max(e.peak, e.memory())
}

// memory is the number of bytes the search holds, counted from sizes:
// the visited set, the stack (frames, alternative vectors, the path) and
// every world buffer. It does not read the Go runtime, so a search that
// hits the budget hits it at the same state on every run; the process's
// resident memory is larger by the runtime, the invariants' copies and the
// garbage collector's headroom.
func (e *explorer) memory() int64 {
	return e.visited.bytes() + e.worldBytes + e.frameBytes + int64(cap(e.fpBuf))
}

// restore rebuilds the world of level j: it copies the nearest level below
// that kept its world and replays the recorded choices of the levels in
// between, giving a world back to every one of them that still has
// alternatives to try. The replay is exact — same world, same answers — so
// the search does not depend on which worlds were kept.
func (e *explorer) restore(j int) {
	i := j - 1
	for e.stack[i].world == nil {
		i--
	}
	cur := e.acquire()
	cur.w.CopyFrom(e.stack[i].world.w)
	for m := i + 1; m <= j; m++ {
		f := e.stack[m]
		e.replay.reset(e.path[f.viaStart:f.viaEnd], e.left(e.stack[m-1].spent))
		cur.w.SetChooser(&e.replay)
		cur.w.Step()
		e.res.Replayed++
		switch {
		case m == j:
			e.account(cur)
			f.world = cur
		case !f.done:
			b := e.acquire()
			b.w.CopyFrom(cur.w)
			e.account(b)
			f.world = b
		}
	}
}

// FormatBytes writes a byte count in the largest binary unit that divides
// it exactly (2GiB, 512MiB, 1500B), the form ParseBytes-style flags accept.
func FormatBytes(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%dB", n)
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
