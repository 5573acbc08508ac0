package search

import (
	"fmt"
	"slices"

	"github.com/oncesim/once/sim"
)

// A search split over machines: shards by prefix of the choice tree.
//
// The choice tree is what the search walks: a node is a path of steps
// from the root (each step the answers of its choices), and its children
// are the step's alternatives in the odometer order of compute, so a
// depth-first search visits the tree in preorder and the order of two
// paths is the lexicographic order of their choices (Choices). A shard
// plan picks one level, the prefix depth, and deals its N nodes, in that
// order, to P = n × exploreParts parts in contiguous runs: the k-th node
// belongs to part ⌊k·P/N⌋, and part p to shard p mod n, so each shard has
// every n-th run, spread over the tree. Neighbouring prefixes differ in a
// late choice and share many of their subtrees' states; keeping them in
// one part keeps those merges of the state cache within it (dealt
// round-robin, the 16 parts of a search 170 steps deep counted up to
// 30 % more states than the undivided search; in runs, up to 11 %, and
// 0.17 % at 6 operations and 8 faults of double-billing). Shard i searches
// as usual, from the root, but drops every node of the prefix depth that
// is not its own, with its subtree; the levels above are walked by every
// shard. A large shard is itself searched as its exploreParts parts, one
// by one or on several cores (explore_parts.go); the argument below holds
// for parts as for shards.
//
// Why the first counterexample of the shards is the unsharded one. Let V
// be the first violating path in preorder of the whole tree. A search
// that contains V (any shard's: V's prefix belongs to one shard) reports V:
// it stops only at a violation, and every path it reports is a real
// violating path, so nothing before V; and it reaches V unless the state
// cache skips a node P2 on V's way because the same state was visited
// earlier at a node P1 with no more faults used. P1 came first in preorder
// and is not an ancestor of P2, so P1 followed by the rest of V is a
// violating path before V — impossible. That holds for each shard's own
// visited set as it does for the unsharded search's, whatever the shard
// drops; so the shard that owns V's prefix reports V, no shard reports
// anything earlier, and when no shard finds a violation there is none.
// The counts are another matter: each shard has its own visited set, so a
// state reached below the prefixes of two shards is counted in both, and
// the levels above the prefix depth are counted by every shard. (All of
// this holds for complete searches; a shard cut by a budget may miss what
// the unsharded search, cut elsewhere, found.)
//
// The prefix depth is the shallowest level with at least
// shardPrefixesPerShard nodes per part, counted in the tree without the
// state cache (so every shard, whatever it later visits, counts the same
// tree): a few thousand steps for the catalog's searches, and at most
// shardPlanSteps. The dealing does not depend on the number of workers:
// the search asks the plan only in the order it decides everything else.

// shardPrefixesPerShard is how many prefixes the plan wants per part, so
// that the subtrees, whose sizes vary a lot, even out. 4 rather than 8:
// the prefix level is shallower, so the levels every part walks are
// fewer (at 6 / 8: 1 254 848 states instead of 1 257 503, the largest of
// 16 parts 21 % instead of 23 %; 5–9 % fewer on the deep searches but
// one).
const shardPrefixesPerShard = 4

// shardPlanSteps bounds the steps the plan runs to count the levels.
const shardPlanSteps = 1 << 20

// Shard names one part of a search split into Count parts: the part
// Index (0-based) searches the subtrees of its own prefixes. Explore plans
// the split (the same plan in every shard) and reports in Choices the
// first counterexample of the part; the part whose counterexample comes
// first in canonical order (CompareChoices) has the unsharded search's.
type Shard struct {
	Index, Count int

	depth int              // the prefix depth; 0 = no level is dealt out
	owner map[uint64]int32 // a prefix's identity (its pathHash) -> its part
	parts int              // the parts the prefixes are dealt to: Count × exploreParts
	part  int              // the one part searched, or -1: every part of the shard
}

// owns reports whether the prefix with identity h is searched here: the
// prefixes are dealt to parts (Count × exploreParts of them), part p
// belongs to shard p mod Count, so shard i's prefixes are exactly those
// of its exploreParts parts, and a part search keeps one part's only.
func (s *Shard) owns(h uint64) bool {
	owner, ok := s.owner[h]
	if !ok { // not in the plan's tree (it always is): still exactly one owner
		owner = int32(h % uint64(s.parts))
	}
	if s.part >= 0 {
		return int(owner) == s.part
	}
	return int(owner)%s.Count == s.Index
}

// forPart returns a copy of the planned s that searches its part j (of
// exploreParts), global part Index + j·Count.
func (s *Shard) forPart(j int) *Shard {
	p := *s
	p.part = s.Index + j*s.Count
	return &p
}

// CompareChoices orders two counterexamples of one search as the search
// meets them (preorder of the choice tree): -1, 0 or +1. A path before
// another that extends it comes first.
func CompareChoices(a, b []int) int { return slices.Compare(a, b) }

// check says whether the shard is one of its count.
func (s *Shard) check() error {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("explore: shard %d/%d: want 0 ≤ index < count", s.Index, s.Count)
	}
	return nil
}

// plan returns a copy of s with its prefix depth and the dealing of that
// level's nodes to Count × exploreParts parts, for the search from root
// with opt (already given its defaults). The plan depends on the tree and
// on Count only.
func (s *Shard) plan(root *sim.World, opt Options) *Shard {
	p := &Shard{Index: s.Index, Count: s.Count, parts: s.Count * exploreParts, part: -1}
	w := &shardPlanner{e: explorer{opt: opt}, sc: stepChooser{kinds: opt.Kinds}}
	w.e.opt.Shard = nil
	want := shardPrefixesPerShard * p.parts
	var counts []int
	for limit := 1; ; limit *= 2 {
		w.steps = shardPlanSteps
		c := make([]int, limit+1)
		if !w.walk(root, 0, 0, pathHash(0, nil), limit, func(level int, _ uint64) { c[level]++ }) {
			break // too big to count: the last complete count decides
		}
		counts = c
		if i := slices.IndexFunc(c[1:], func(n int) bool { return n >= want }); i >= 0 {
			p.depth = i + 1
			break
		}
		if c[limit] == 0 || limit >= opt.MaxDepth {
			break // the tree ends above limit
		}
	}
	if p.depth == 0 && len(counts) > 1 {
		p.depth = 1 + slices.Index(counts[1:], slices.Max(counts[1:]))
	}
	if p.depth == 0 || counts[p.depth] == 0 {
		p.depth = 0
		return p
	}
	p.owner = make(map[uint64]int32, counts[p.depth])
	rank := 0
	w.steps = shardPlanSteps
	w.walk(root, 0, 0, pathHash(0, nil), p.depth, func(level int, h uint64) {
		if level != p.depth {
			return
		}
		if _, ok := p.owner[h]; !ok { // two prefixes with one identity share a shard
			p.owner[h] = int32(rank * p.parts / counts[p.depth])
		}
		rank++
	})
	return p
}

// outsideShard reports whether the child reached from a level with
// identity parent by the answers via, at depth on the explorer's stack,
// is a prefix searched elsewhere (another shard's or another part's). It
// is the one hook of sharding in the search, called for every child
// before anything else is decided about it.
func (e *explorer) outsideShard(depth int, parent uint64, via []int) bool {
	s := e.opt.Shard
	if s == nil || s.depth == 0 || depth != s.depth {
		return false
	}
	return !s.owns(pathHash(parent, via))
}

// shardPlanner walks the choice tree without the state cache.
type shardPlanner struct {
	e      explorer // for its options and budget arithmetic only
	sc     stepChooser
	worlds []*sim.World // one per level
	vias   [][]int      // the answers of each level's current step
	vecs   [][]int      // the alternative vector of each level's next step
	steps  int          // steps left
}

// walk calls at for every child of w's subtree down to level limit,
// running leaves and violations included, in the search's order; it
// reports false when the step budget ran out.
func (p *shardPlanner) walk(w *sim.World, level, spent int, hash uint64, limit int, at func(level int, hash uint64)) bool {
	for len(p.worlds) <= level+1 {
		p.worlds = append(p.worlds, &sim.World{})
		p.vias = append(p.vias, nil)
		p.vecs = append(p.vecs, nil)
	}
	vec := p.vecs[level][:0]
	for {
		if p.steps--; p.steps < 0 {
			return false
		}
		budget := p.e.left(spent)
		child := p.worlds[level+1]
		child.CopyFrom(w)
		p.sc.reset(vec, budget)
		child.SetChooser(&p.sc)
		stepped := child.Step()
		if stepped && child.Pending() == 0 {
			child.Step() // mark it quiescent, as compute does
		}
		via := append(p.vias[level][:0], p.sc.answers...) // the walk below reuses p.sc
		p.vias[level] = via
		used := spent + (budget - p.sc.budget)
		nextLen := p.sc.nextLen(budget)
		h := pathHash(hash, via)
		at(level+1, h)
		running := stepped && child.Ended() == sim.Running && child.JudgeStatus(p.e.opt.Promise) != sim.Violated
		if running && level+1 < limit && level+1 < p.e.opt.MaxDepth {
			if !p.walk(child, level+1, used, h, limit, at) {
				return false
			}
		}
		if nextLen == 0 {
			return true
		}
		vec = advanceVec(vec, via, nextLen)
		p.vecs[level] = vec
	}
}
