package search

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/oncesim/once/sim"
)

// A large search runs as parts, on every core.
//
// The parts are the shards of explore_shard.go, on one machine: the plan
// deals the nodes of one level of the choice tree (the prefix depth) to
// exploreParts parts, and each part is an ordinary depth-first search, with
// a visited set of its own, of the subtrees of its prefixes (and of the
// levels above, which every part walks). A part runs to its end or to its
// own first violation, whatever the others do. The workers (--workers)
// claim the parts in index order and run them, each on one goroutine; the
// results are merged in part order, as `once merge` merges shards: the
// search holds when every part holds, its counterexample is the parts'
// first in canonical order (CompareChoices), which is the first violating
// path of the whole tree — the argument of explore_shard.go, which holds
// for any dealing —, it is complete when every part is, and its counts are
// the sums of the parts' (the deepest schedule the deepest of theirs).
//
// So the verdict, the counterexample and every count are the same for
// every number of workers: each part is a deterministic search whose
// input (the tree, the plan, its part index, its budgets) does not depend
// on the workers, and the merge does not depend on the order in which the
// parts ended. They are not the counts of one undivided search: a state
// reached below two parts' prefixes is counted by both, and the levels
// above the prefix depth by all of them, which at 6 operations and 8
// faults of double-billing adds 0.17 % to the states (1 254 848 against
// 1 252 673), and 4–11 % on the catalog's deep transactional searches
// (170 steps). A part of a shard is a part too: shard i of n is the parts
// p with p mod n = i of a plan of n × exploreParts parts, so a sharded
// search splits its shards without changing what they own.
//
// Small searches stay undivided: a part-based search of a small tree would
// repeat the levels above the prefix depth and the planner's walk in every
// part, and a search that finds a violation early would have to run every
// part to its own end instead of stopping there. Every search therefore
// starts undivided, on one goroutine, and is kept as it is when it ends —
// proof, violation or budget cut — before it has counted Tuning.SplitAt
// states; a search that gets there is dropped and run again as parts. The
// cut is a property of the tree and the bounds, so it is the same for
// every number of workers; the dropped start costs at most
// DefaultSplitAt states (about 1 % of the search at 6 / 8).
//
// Budgets are those of the parts run one after another. --max-states is
// spent in part order (searchParts): part j has what parts before it left,
// and the parts after the one that used it up are not searched. Each part
// has the whole of --max-memory, the parts after one cut by it are not
// searched either, and the reported memory is the most one part held:
// what a one-worker search holds at once. n workers hold n parts at once;
// together they stay within --max-memory, because a part that would take
// the sum past it stops and runs again later (explore_memory.go). The checkpoint discipline, the state cache and everything
// else of a part's search are those of the undivided one
// (explore_search.go).

// exploreParts is how many parts a large search (or shard) is split into:
// a constant, so that the counts do not depend on the number of workers.
// At 6 / 8 the largest of 16 parts holds 21 % of the states (the first
// prefixes, with the most fault budget left, have the largest subtrees),
// and the workers claim it first, so 2 to 4 workers stay busy to the end;
// the repeated upper levels add 0.17 %. (32 parts, dealt round-robin,
// added 2 %.)
const exploreParts = Parts

// searchSplit runs the search of shard (0/1 for the whole tree) from
// root, undivided if it ends before counting splitAt states, else as its
// parts.
func searchSplit(root *sim.World, opt Options, shard *Shard, every, window, splitAt int) *Result {
	var plan *Shard
	if shard.Count > 1 {
		plan = shard.plan(root, opt)
	}
	one := opt
	one.Shard = plan
	e := newExplorer(one, every, window)
	if !opt.Audit && opt.OnState == nil {
		e.splitAt = splitAt
	}
	res := e.run(root.Clone())
	if !e.split {
		return res
	}
	if plan == nil {
		plan = shard.plan(root, opt)
	}
	if plan.depth == 0 { // no level to deal out: the search stays undivided
		return newExplorer(one, every, window).run(root)
	}
	res = nil // the dropped start's memory is free for the parts
	return searchParts(root, opt, plan, every, window)
}

// searchParts runs the exploreParts parts of plan on opt.Workers
// goroutines and merges their results in part order.
//
// The state budget is spent in part order: part j may count what parts
// 0..j-1 left of opt.MaxStates, as if the parts ran one after another. The
// parts run at once, each with the whole budget; a part that counted more
// than its share is run again with its share (the same search, cut where
// the share runs out), and the parts after it are dropped. A part is not
// started when the parts already finished — all before it — used the
// budget up.
func searchParts(root *sim.World, opt Options, plan *Shard, every, window int) *Result {
	roots := make([]*sim.World, exploreParts)
	for j := range roots {
		roots[j] = root.Clone()
	}
	results := make([]*Result, exploreParts)
	progress := newPartsProgress(opt.Progress)
	q := newPartsQueue(min(max(opt.Workers, 1), exploreParts), opt.MaxMemory, plan.bytes())
	var finished atomic.Int64 // states of the finished parts
	// cutAt is the lowest part cut by the memory budget so far: the
	// parts after it are not part of the search (see the merge below),
	// so none is started.
	var cutAt atomic.Int64
	cutAt.Store(exploreParts)
	var wg sync.WaitGroup
	for range q.workers {
		wg.Go(func() {
			var pool []*worldBuf // the world buffers of the worker's parts, reused
			for j := q.take(); j >= 0; j = q.take() {
				if finished.Load() >= int64(opt.MaxStates) || int64(j) > cutAt.Load() {
					q.done(j, nil)
					continue // every later part is past a budget
				}
				r := runPart(roots[j], opt, plan, j, opt.MaxStates, progress.of(j), &pool, q.meter, every, window)
				if r.stopped {
					roots[j] = q.clone(root) // the run used its root up
					q.defer_(j)              // it gave its memory back: run again later
					continue
				}
				results[j] = r
				roots[j] = nil
				if r.memoryCut {
					for c := cutAt.Load(); int64(j) < c && !cutAt.CompareAndSwap(c, int64(j)); c = cutAt.Load() {
					}
				}
				finished.Add(int64(r.States))
				progress.done(j, r.Stats)
				q.done(j, r)
			}
		})
	}
	wg.Wait()
	spent := 0
	for j, r := range results {
		share := opt.MaxStates - spent
		if share <= 0 || r == nil { // r is nil only past a budget, or when interrupted
			results = results[:j]
			break
		}
		if r.States >= share {
			r = runPart(root.Clone(), opt, plan, j, share, nil, nil, nil, every, window)
			if r.States >= share {
				r.Cut = fmt.Sprintf("state budget of %d exhausted", opt.MaxStates) // not the part's share
			}
			results[j] = r
		}
		spent += r.States
		if r.memoryCut {
			// The memory budget ends the search here, as the state budget
			// does: the parts after this one are not part of it.
			results = results[:j+1]
			break
		}
	}
	return mergeParts(results)
}

// runPart runs part j of plan from root with a state budget of maxStates,
// taking world buffers from *pool and leaving its own there, if pool is
// set, and reserving its memory from meter, if set. (A buffer is
// overwritten whole before use, and the search counts worlds by their
// sizes, so the reuse changes nothing it reports.)
func runPart(root *sim.World, opt Options, plan *Shard, j, maxStates int, progress func(Stats), pool *[]*worldBuf, meter *partsMeter, every, window int) *Result {
	opt.Shard = plan.forPart(j)
	opt.MaxStates = maxStates
	opt.Progress = progress
	e := newExplorer(opt, every, window)
	e.fixedBytes = plan.bytes()
	e.meter, e.part = meter, j
	if pool != nil {
		e.pool = *pool
	}
	res := e.run(root)
	if pool != nil {
		for i := range e.stack {
			e.drop(e.stack[i].world)
		}
		// A pooled world still points at this explorer's choosers, and
		// through them at the explorer and its visited set: detach it,
		// or the set of a part that ended stays alive beside the next
		// part's, uncounted (the next part sets its own chooser).
		for _, b := range e.pool {
			b.w.SetChooser(sim.Defaults{})
		}
		*pool = e.pool
	}
	return res
}

// mergeParts merges the parts' results in part order: the verdict and the
// counterexample first in canonical order, the first cut, the counts
// summed but the memory and the worlds, which are the most one part held.
func mergeParts(results []*Result) *Result {
	res := &Result{Holds: true, Complete: true}
	for _, r := range results {
		res.Stats = res.Stats.merge(r.Stats)
		res.Branched = UnionBranches(res.Branched, r.Branched)
		if !r.Complete && res.Complete {
			res.Complete, res.Cut = false, r.Cut
		}
		if !r.Holds && (res.Holds || CompareChoices(r.Choices, res.Choices) < 0) {
			res.Holds, res.Choices, res.Why, res.Reason = false, r.Choices, r.Why, r.Reason
		}
	}
	return res
}

// partsProgress sums the parts' progress for opt.Progress.
type partsProgress struct {
	mu    sync.Mutex
	to    func(Stats)
	parts [exploreParts]Stats
}

func newPartsProgress(to func(Stats)) *partsProgress {
	return &partsProgress{to: to}
}

// of is the Progress of part j, or nil when nobody listens.
func (p *partsProgress) of(j int) func(Stats) {
	if p.to == nil {
		return nil
	}
	return func(s Stats) { p.done(j, s) }
}

// done records part j's statistics and reports the sum.
func (p *partsProgress) done(j int, s Stats) {
	if p.to == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.parts[j] = s
	var sum Stats
	for _, q := range p.parts {
		sum = sum.merge(q)
	}
	p.to(sum)
}

// merge is the statistics of two searches that did not share their
// visited sets: the counts summed, the depth, worlds and memory the most
// one of them reached (each part holds its own, one after another).
func (s Stats) merge(o Stats) Stats {
	s.States += o.States
	s.Transitions += o.Transitions
	s.Schedules += o.Schedules
	s.Revisits += o.Revisits
	s.Replayed += o.Replayed
	s.Collapsed += o.Collapsed
	s.Worlds = max(s.Worlds, o.Worlds)
	s.Memory = max(s.Memory, o.Memory)
	s.MaxDepth = max(s.MaxDepth, o.MaxDepth)
	return s
}
