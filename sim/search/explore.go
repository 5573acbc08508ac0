package search

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/oncesim/once/sim"
)

// Default budgets of a search.
const (
	DefaultMaxDepth  = 100_000
	DefaultMaxStates = 20_000_000
	DefaultMaxMemory = int64(2 << 30) // 2 GiB, well under a laptop's memory
	// MaxFaults is the most faults one schedule of a search may
	// use; flags and scenario files (explore.max-faults, expect.explore)
	// are checked against it.
	MaxFaults = 20
	// MaxPreemptions is the most preemptions one schedule may use.
	MaxPreemptions = 10
)

// stopCheckEvery is how many iterations of the search pass between two
// looks at Options.Stop.
const stopCheckEvery = 64

// Options bound an exhaustive search.
type Options struct {
	MaxFaults int // faults per schedule (each non-default fault choice costs 1)
	// MaxPreemptions bounds the interleavings per schedule: each preempt
	// choice taken (a handler descheduled between two store steps) costs
	// 1, as CHESS and Coyote bound preemptions. 0 explores no interleaving
	// but the run-to-completion order.
	MaxPreemptions int
	Promise        sim.Promise // the property checked; 0 = the semantics' own promise
	Kinds          sim.KindSet // fault kinds to enumerate; 0 = all
	MaxDepth       int         // engine steps per schedule; 0 = DefaultMaxDepth
	MaxStates      int         // distinct states before giving up; 0 = DefaultMaxStates
	// MaxMemory is the budget, in bytes, of what the search holds (visited
	// set, stack, world buffers), counted from sizes rather than read from
	// the runtime so the cut is deterministic; 0 = DefaultMaxMemory.
	MaxMemory int64
	// Stateless turns the state cache off: every schedule is executed to
	// its end. It exists to check, in tests, that the cache is a sound
	// reduction (same verdicts, fewer transitions).
	Stateless bool
	// Audit keeps a copy of the first world seen under each fingerprint
	// and, whenever the cache would skip a state, runs both worlds to
	// their end without further faults and compares what they did. Any
	// difference means the fingerprint merged two states that behave
	// differently; it is reported in Result.AuditFailure. A test
	// aid: slow, and it keeps every world in memory.
	Audit bool
	// Stop, if set, ends the search when it is closed (checked every
	// stopCheckEvery iterations): the result is incomplete, cut
	// "interrupted", with the statistics so far.
	Stop <-chan struct{}
	// Progress, if set, is called every ProgressEvery new states.
	Progress      func(Stats)
	ProgressEvery int
	// Workers is how many goroutines the search uses; 0 or 1 = one. The
	// result — verdict, counterexample, every statistic — is the same for
	// every number of workers (see explore_parts.go); Audit uses one.
	Workers int
	// Shard, if set, searches only one part of the choice tree (see
	// explore_shard.go); the result is that part's.
	Shard *Shard
	// Tuning trades memory against time (explore_tuning.go); the zero
	// value is the defaults.
	Tuning Tuning
	// Reduce says which reductions the search applies (reduce.go); the
	// zero value is all that are implemented.
	Reduce Reduction
	// OnState, if set, is called with every state the search stores (its
	// world, valid only during the call, and the faults used to reach
	// it), root included: a test and diagnostics aid, for counting what
	// the visited set holds by another equivalence (TestSymmetryHeadroom).
	// It forces one part, as Audit does.
	OnState func(w *sim.World, faults int)

	sym *sim.Symmetry // set by Explore when the symmetry reduction is on
}

// Stats counts the work of a search.
type Stats struct {
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
	// Collapsed counts, under the symmetry reduction, the revisits that
	// were a renaming of the state stored, not that state itself: the
	// successors skipped only because the reduction merged them (the
	// visited set keeps, per state, a byte of the hash of the renaming it
	// was stored under, sim.Symmetry.Naming, so up to 1 in 256 of them
	// are taken for the state itself and not counted). A state reached
	// again under a renaming already seen counts again; States against a
	// search with Reduce: ReduceNone is the exact saving in states.
	Collapsed int
}

// Result is the verdict of a search.
type Result struct {
	Stats
	Holds    bool   // no schedule within the bounds violates the promise or an invariant
	Complete bool   // the bounds, not a budget, limited the search
	Cut      string // why the search is incomplete, if it is
	// Choices reproduces the counterexample: feed them in order to a
	// Sequence chooser (nil when Holds).
	Choices []int
	Why     string     // the violation, in English
	Reason  sim.Reason // Why as data
	// AuditFailure describes the first unsound merge Audit found.
	AuditFailure string
	// Symmetry says that the search stored one state per renaming of the
	// operations (reduce.go), and SymmetryRenames what else the renaming
	// maps (sim.Symmetry.Renames); SymmetryOff, when the reduction was
	// asked for and not applied, says why.
	Symmetry        bool
	SymmetryRenames []string
	SymmetryOff     *sim.SymmetryOff
	// Branched lists, sorted, the places where the search took a fault's
	// or a preemption's alternative (see Branch). It is a union over the
	// search's parts, so it is the same for every number of workers.
	Branched []Branch

	memoryCut bool // Cut is the memory budget's
	stopped   bool // a part stopped to give its memory to a lower part (explore_memory.go)
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
	budget  int // packed (see packBudget): faults and preemptions still allowed in this step
	kinds   sim.KindSet
	// branched, if set, collects the places where a fault or preemption
	// alternative is taken (the search's chooser; not the replay's).
	branched *branchSet
}

// budgetKind says which budget a non-default answer is charged to.
type budgetKind uint8

const (
	costFree    budgetKind = iota // jitter: not enumerated
	costFault                     // a fault: the fault budget
	costPreempt                   // an interleaving: the preemption budget
)

// A budget (what a path spent, or what it has left) packs faults and
// preemptions into one int, faults in the low budgetStride units: both
// parts add and subtract independently as long as each stays in
// [0, budgetStride), which MaxFaults and MaxPreemptions
// guarantee. The explorer carries it where it carried a fault count.
const budgetStride = 32

func packBudget(faults, preemptions int) int { return faults + preemptions*budgetStride }
func budgetFaults(b int) int                 { return b % budgetStride }
func budgetPreemptions(b int) int            { return b / budgetStride }

// unit is what one non-default answer of cost c takes from a budget.
func (c budgetKind) unit() int {
	if c == costPreempt {
		return budgetStride
	}
	return 1
}

// left says how much of each part of budget b remains for cost c.
func left(b int, c budgetKind) int {
	if c == costPreempt {
		return budgetPreemptions(b)
	}
	return budgetFaults(b)
}

func costOf(k sim.ChoiceKind) budgetKind {
	switch {
	case k.IsReorder():
		return costPreempt
	case k.IsFault():
		return costFault
	}
	return costFree
}

func (s *stepChooser) reset(prefix []int, budget int) {
	s.prefix, s.answers, s.arity, s.cost, s.pos, s.budget = prefix, s.answers[:0], s.arity[:0], s.cost[:0], 0, budget
}

func (s *stepChooser) Choose(c sim.Choice) int {
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
	if v >= n || (v != 0 && cost != costFree && left(s.budget, cost) <= 0) {
		v = 0
	}
	if v != 0 && cost != costFree {
		s.budget -= cost.unit()
		if s.branched != nil {
			s.branched.add(&c)
		}
	}
	s.answers = append(s.answers, v)
	s.arity = append(s.arity, n)
	s.cost = append(s.cost, cost)
	s.pos++
	return v
}

// nextLen says which alternative vector follows the one just run, within
// the budgets of the step: it is the answers so far, cut after position
// nextLen-1, whose answer is one more. 0 means the step is exhausted. (The
// explorer builds the vector with advanceVec.)
func (s *stepChooser) nextLen(budget int) int {
	for i := len(s.answers) - 1; i >= 0; i-- {
		if s.answers[i]+1 >= s.arity[i] {
			continue
		}
		c := s.cost[i]
		if c != costFree {
			used := 0
			for j := 0; j < i; j++ {
				if s.answers[j] != 0 && s.cost[j] == c {
					used++
				}
			}
			if used+1 > left(budget, c) {
				continue
			}
		}
		return i + 1
	}
	return 0
}

// advanceVec writes into dst the alternative vector that follows answers,
// given nextLen; it returns dst[:0] when there is none.
func advanceVec(dst, answers []int, nextLen int) []int {
	vec := append(dst[:0], answers...)
	if nextLen == 0 {
		return vec[:0]
	}
	vec[nextLen-1]++
	return vec[:nextLen]
}

// Explore searches every schedule of cfg with at most opt.MaxFaults faults,
// depth first, skipping states already explored with no more faults used.
// It stops at the first violation (the caller shrinks it).
//
// The state cache is sound: a state's future
// depends only on what its fingerprint encodes (see World.AppendState), and
// a state revisited with at least as many faults used has a subset of the
// futures already explored. No partial-order reduction is needed because
// the explorer never branches on the order of events — the engine orders
// them by (time, sequence) — only on fault choices; two fault choices that
// lead to the same state (losing a message to a crashed node, or letting it
// be dropped there) merge through the cache. TestExploreStateCacheIsSound
// checks the verdicts against a stateless search. Under the symmetry
// reduction (Options.Reduce, reduce.go) the cache is keyed by a state's
// orbit under renamings of the operations rather than by the state;
// TestSymmetryReductionKeepsVerdicts and TestRolesAreEquivariant (package
// scenarios) check it.
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
// the next alternative to try; a world is kept every
// opt.Tuning.CheckpointEvery levels and for the last opt.Tuning.Window levels, and any other level's world is
// rebuilt, when it is needed again, by replaying the recorded choices from
// the nearest kept world (see explorer.restore). The search counts the
// bytes it holds (visited set, stack, world buffers) and stops at
// opt.MaxMemory, like at any other budget.
func Explore(cfg *sim.Config, opt Options) (*Result, error) {
	every, window, splitAt, err := opt.Tuning.resolve()
	if err != nil {
		return nil, err
	}
	if opt.MaxFaults < 0 || opt.MaxFaults > MaxFaults {
		return nil, fmt.Errorf("explore: %d faults per schedule outside [0, %d]", opt.MaxFaults, MaxFaults)
	}
	if opt.MaxPreemptions < 0 || opt.MaxPreemptions > MaxPreemptions {
		return nil, fmt.Errorf("explore: %d preemptions per schedule outside [0, %d]", opt.MaxPreemptions, MaxPreemptions)
	}
	if opt.Promise == 0 {
		opt.Promise = cfg.Semantics.Promise()
	}
	if opt.Kinds == 0 {
		opt.Kinds = sim.AllFaultKinds
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = DefaultMaxStates
	}
	if opt.MaxMemory <= 0 {
		opt.MaxMemory = DefaultMaxMemory
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = 100_000
	}
	root, err := sim.NewWorld(cfg, sim.Defaults{}, nil)
	if err != nil {
		return nil, err
	}
	shard := &Shard{Count: 1}
	if opt.Shard != nil {
		if err := opt.Shard.check(); err != nil {
			return nil, err
		}
		shard = opt.Shard
	}
	sym, off := symmetry(cfg, &opt)
	opt.sym = sym
	if sym != nil && opt.Tuning.SplitAt == 0 {
		splitAt = 0 // symmetric searches stay undivided (reduce.go)
	}
	res := searchSplit(root, opt, shard, every, window, splitAt)
	res.Symmetry, res.SymmetryOff = sym != nil, off
	if sym != nil {
		res.SymmetryRenames = sym.Renames()
	}
	return res, nil
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
// and says how their outcomes differ, or returns "". Under the symmetry
// reduction (renamed) a and b may be renamings of each other: their
// operations are then compared as multisets.
func sameFuture(a, b *sim.World, renamed bool) string {
	ra, rb := a.Clone(), b.Clone()
	ra.SetChooser(sim.Defaults{})
	rb.SetChooser(sim.Defaults{})
	ra.SetRecorder(nil)
	rb.SetRecorder(nil)
	oa, ob := ra.Run(), rb.Run()
	if oa.End != ob.End {
		return fmt.Sprintf("equal fingerprints, different ends: %s vs %s", oa.End, ob.End)
	}
	if oa.Status != ob.Status {
		return fmt.Sprintf("equal fingerprints, different verdicts: %s (%s) vs %s (%s)", oa.Status, oa.Why, ob.Status, ob.Why)
	}
	if renamed {
		byResult := func(x, y sim.OpResult) int {
			return cmp.Or(cmp.Compare(x.Effects, y.Effects), cmp.Compare(x.Verdict, y.Verdict), cmp.Compare(x.DistinctOutcomes, y.DistinctOutcomes))
		}
		slices.SortFunc(oa.Ops, byResult)
		slices.SortFunc(ob.Ops, byResult)
	}
	for i := range oa.Ops {
		x, y := &oa.Ops[i], &ob.Ops[i]
		if x.Effects != y.Effects || x.Verdict != y.Verdict || x.DistinctOutcomes != y.DistinctOutcomes {
			return fmt.Sprintf("equal fingerprints, %s ends with %d effects (%s) vs %d (%s)", x.Op, x.Effects, x.Verdict, y.Effects, y.Verdict)
		}
	}
	if ra.Now()-a.Now() != rb.Now()-b.Now() {
		return fmt.Sprintf("equal fingerprints, the runs end %s vs %s later", ra.Now()-a.Now(), rb.Now()-b.Now())
	}
	if ra.Events()-a.Events() != rb.Events()-b.Events() {
		return fmt.Sprintf("equal fingerprints, %d vs %d further events", ra.Events()-a.Events(), rb.Events()-b.Events())
	}
	return ""
}
