package search

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/oncesim/once/sim"
)

// Checkpointing of the explorer's stack: the world of a level is kept when
// the level is a multiple of every or within window levels of the top;
// rebuilding another level replays fewer than every steps
// (Tuning sets both).

// worldBuf is a world the explorer owns.
type worldBuf struct {
	w *sim.World
}

// frame is one level of the depth-first stack.
//
// A level "holds" its world when the checkpoint discipline says so (held):
// that is what the search counts, replays and reports. Whether the
// explorer has the world at hand (world) is another matter: a level whose
// world was released and is needed again holds it again at once (the
// count), and has it rebuilt by replay only when a step must actually be
// computed there.
type frame struct {
	world    *worldBuf // the world at hand, or nil
	held     bool      // the level holds its world in the checkpoint discipline
	size     int64     // counted bytes of the level's world (World.StateBytes)
	faults   int       // budget spent to reach this level: faults and preemptions, packed (packBudget)
	vec      []int     // the next alternative vector to try from here
	viaStart int       // path[viaStart:viaEnd] led here from the parent
	viaEnd   int
	done     bool   // every alternative tried
	pathHash uint64 // the identity of the level: a hash of the choices from the root
}

// transition is what one step from a level gives.
type transition struct {
	via      []int // the answers of the step (valid until the next step)
	used     int   // faults used by the child
	nextLen  int   // see stepChooser.nextLen
	stepped  bool
	end      sim.End
	violated bool
	fp       sim.Fingerprint // of a child that is still running
	naming   uint8           // under the symmetry reduction, the renaming that maps the child to fp's state (hashed)
	size     int64           // the child's counted bytes
	child    *worldBuf       // the child world
}

// explorer is the state of one search.
type explorer struct {
	opt      Options
	every    int // a level that is a multiple of every keeps its world
	window   int // so do the top window levels
	res      *Result
	visited  *fingerprintSet
	audited  map[sim.Fingerprint]*sim.World
	sc       stepChooser // enumerates the alternatives of a step
	branches branchSet   // where sc took a fault's or preemption's alternative
	replay   stepChooser // replays a recorded step while restoring
	stack    []frame     // contiguous; popped frames keep their vec buffers
	path     []int       // the choices of every level, root first
	pool     []*worldBuf
	fpBuf    []byte
	sym      *sim.Symmetry // the symmetry reduction's scratch, or nil

	// splitAt, if positive, ends the search as soon as it counts that
	// many states, with split set: the search is large enough to be run
	// as parts (explore_parts.go).
	splitAt int
	split   bool

	heldBytes  int64 // counted bytes of the worlds the levels hold
	heldWorlds int   // how many levels hold a world
	maxWorld   int64 // the largest counted world seen (the child and replay buffers)
	frameBytes int64 // frames, alternative vectors, the path
	peak       int64 // the most bytes counted at once
	fixedBytes int64 // what the search holds from its start: the shard plan

	// meter, if set, is the memory shared by the parts running at once
	// (explore_memory.go); part is this search's part index there.
	meter    *partsMeter
	part     int
	reserved int64 // bytes reserved from meter
}

func newExplorer(opt Options, every, window int) *explorer {
	e := &explorer{
		opt:     opt,
		every:   every,
		window:  window,
		res:     &Result{Holds: true, Complete: true},
		visited: newFingerprintSet(),
		sc:      stepChooser{kinds: opt.Kinds},
		replay:  stepChooser{kinds: opt.Kinds},
	}
	e.sc.branched = &e.branches
	if opt.sym != nil {
		e.sym = opt.sym.Clone()
		e.visited.withNamings()
	}
	return e
}

// run searches from root on the calling goroutine.
func (e *explorer) run(root *sim.World) *Result {
	if e.opt.Audit {
		e.audited = map[sim.Fingerprint]*sim.World{}
	}
	root.SetDigest(false) // nothing in a search reads the trace digest
	rootBuf := e.acquire()
	rootBuf.w = root
	fp, naming := e.fingerprint(root)
	e.visited.addNamed(fp, 0, naming)
	e.res.States = 1
	if e.opt.OnState != nil {
		e.opt.OnState(root, 0)
	}
	e.push(rootBuf, root.StateBytes(), 0, nil, 0)
	e.search()
	e.res.Branched = slices.Clone(e.branches)
	e.res.Memory = e.peak
	e.res.Worlds = max(e.res.Worlds, e.heldWorlds) + 1 // the levels' worlds and the child being stepped
	return e.res
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
		if e.meter != nil && e.meter.aborted(e.part) {
			res.stopped = true // the part gives its memory back and runs again later
			return
		}
		top := len(e.stack) - 1
		f := &e.stack[top]
		if f.done {
			e.pop()
			continue
		}
		if !f.held {
			e.holdAgain(top)
		}
		t := e.compute(top)
		res.Transitions++
		oldCap := cap(f.vec)
		f.vec = advanceVec(f.vec, t.via, t.nextLen)
		e.frameBytes += int64(cap(f.vec)-oldCap) * 8
		f.done = t.nextLen == 0
		if f.done && top%e.every != 0 {
			e.release(f) // no alternative left to copy it for
		}

		depth := len(e.stack)
		if e.outsideShard(depth, f.pathHash, t.via) {
			e.drop(t.child)
			continue
		}
		if !t.stepped || t.end != sim.Running {
			res.Schedules++
			res.MaxDepth = max(res.MaxDepth, depth)
			switch {
			case t.violated:
				e.violation(t, top)
				return
			case t.end != sim.Quiescent:
				res.Complete = false
				res.Cut = fmt.Sprintf("a schedule hit the run's %s", t.end)
			}
			e.drop(t.child)
			continue
		}
		if t.violated {
			e.violation(t, top)
			return
		}
		if opt.Audit {
			cw := t.child.w
			if first, ok := e.audited[t.fp]; ok {
				if why := sameFuture(first, cw, e.sym != nil); why != "" && res.AuditFailure == "" {
					res.AuditFailure = why
				}
			} else {
				e.audited[t.fp] = cw.Clone()
			}
		}
		if !opt.Stateless && e.visited.full() {
			// The set must double before it takes another state: the new
			// table is held beside the old one while the entries move,
			// so the grown set must fit the budget with that transient.
			if e.memory()+e.visited.growBytes() > opt.MaxMemory {
				e.note(0)
				e.memoryCut(t)
				return
			}
			if e.note(e.visited.growBytes()); e.meter != nil && e.meter.aborted(e.part) {
				res.stopped = true // a lower part needs the memory: give it back before growing
				return
			}
			e.visited.grow()
		}
		if !opt.Stateless {
			if explore, renamed := e.visited.addNamed(stateKey(t.fp, t.used), budgetFaults(t.used), t.naming); !explore {
				res.Revisits++
				if renamed {
					res.Collapsed++
				}
				e.drop(t.child)
				continue
			}
		}
		res.States++
		if opt.OnState != nil {
			opt.OnState(t.child.w, budgetFaults(t.used))
		}
		e.maxWorld = max(e.maxWorld, t.size)
		if opt.Progress != nil && res.States%opt.ProgressEvery == 0 {
			res.Memory = e.peak
			opt.Progress(res.Stats)
		}
		if res.States == e.splitAt && e.splitAt < opt.MaxStates {
			e.split = true
			e.drop(t.child)
			return
		}
		if res.States >= opt.MaxStates {
			e.note(t.size)
			res.Complete = false
			res.Cut = fmt.Sprintf("state budget of %d exhausted", opt.MaxStates)
			return
		}
		if e.note(t.size); e.peak > opt.MaxMemory {
			e.memoryCut(t)
			return
		}
		if depth >= opt.MaxDepth {
			res.Complete = false
			res.Cut = fmt.Sprintf("depth budget of %d steps exhausted", opt.MaxDepth)
			e.drop(t.child)
			continue
		}
		res.MaxDepth = max(res.MaxDepth, depth)
		e.push(t.child, t.size, t.used, t.via, f.pathHash)
	}
}

// memoryCut ends the search at the memory budget, with the child of t
// given back.
func (e *explorer) memoryCut(t transition) {
	e.drop(t.child)
	e.res.Complete = false
	e.res.Cut = fmt.Sprintf("memory budget of %s exhausted", FormatBytes(e.opt.MaxMemory))
	e.res.memoryCut = true
}

// compute runs the step of level top's next alternative on a copy of its
// world.
func (e *explorer) compute(top int) transition {
	f := &e.stack[top]
	if f.world == nil {
		e.rebuild(top)
	}
	budget := e.left(f.faults)
	var child *worldBuf
	if budget == 0 && top%e.every != 0 {
		// No budget left: this step has one alternative (every choice
		// that costs nothing offers one answer), so the level is done
		// after it and gives up its world (search releases it). Step
		// that world itself instead of a copy.
		child, f.world = f.world, nil
	} else {
		child = e.acquire()
		child.w.CopyFrom(f.world.w)
	}
	cw := child.w
	e.sc.reset(f.vec, budget)
	cw.SetChooser(&e.sc)
	stepped := cw.Step()
	if stepped && cw.Pending() == 0 {
		cw.Step() // mark it quiescent
	}
	t := transition{
		via:      e.sc.answers,
		used:     f.faults + (budget - e.sc.budget),
		nextLen:  e.sc.nextLen(budget),
		stepped:  stepped,
		end:      cw.Ended(),
		violated: cw.JudgeStatus(e.opt.Promise) == sim.Violated,
		size:     cw.StateBytes(),
		child:    child,
	}
	if stepped && cw.Ended() == sim.Running && !t.violated {
		t.fp, t.naming = e.fingerprint(cw)
	}
	return t
}

// fingerprint is w's key in the visited set before the budget is folded
// in (stateKey): its fingerprint, or under the symmetry reduction the
// fingerprint of its orbit's canonical member and a byte of the hash of
// the renaming that maps w to it (sim.Symmetry.Naming; 0 without the
// reduction).
func (e *explorer) fingerprint(w *sim.World) (sim.Fingerprint, uint8) {
	if e.sym != nil {
		fp, _ := e.sym.Fingerprint(w, &e.fpBuf)
		return fp, uint8(e.sym.Naming())
	}
	return w.FingerprintWith(&e.fpBuf), 0
}

// violation ends the search with the counterexample of t.
func (e *explorer) violation(t transition, top int) {
	_, why := t.child.w.JudgeReason(e.opt.Promise)
	e.res.Holds, e.res.Why, e.res.Reason = false, why.String(), why
	e.res.Choices = append(append([]int(nil), e.path...), t.via...)
}

// push adds a level reached with used faults by the choices via, whose
// world (size bytes) is b; it releases the world of the level that leaves
// the window.
func (e *explorer) push(b *worldBuf, size int64, used int, via []int, parentHash uint64) {
	start := len(e.path)
	oldCap := cap(e.path)
	e.path = append(e.path, via...)
	e.frameBytes += int64(cap(e.path)-oldCap) * 8
	var vec []int
	if n := len(e.stack); n < cap(e.stack) {
		vec = e.stack[:n+1][n].vec[:0] // the buffer of the frame popped from this slot
	}
	oldCap = cap(e.stack)
	e.stack = append(e.stack, frame{world: b, held: true, size: size, faults: used, vec: vec,
		viaStart: start, viaEnd: len(e.path), pathHash: pathHash(parentHash, via)})
	e.frameBytes += int64(cap(e.stack)-oldCap) * int64(unsafe.Sizeof(frame{}))
	e.heldBytes += size
	e.heldWorlds++
	e.res.Worlds = max(e.res.Worlds, e.heldWorlds)
	if old := len(e.stack) - 1 - e.window; old > 0 && old%e.every != 0 {
		e.release(&e.stack[old])
	}
	e.note(0)
}

// pop removes the top level.
func (e *explorer) pop() {
	top := len(e.stack) - 1
	f := &e.stack[top]
	e.release(f)
	e.path = e.path[:f.viaStart]
	e.stack = e.stack[:top]
}

// release gives up a level's world.
func (e *explorer) release(f *frame) {
	if f.held {
		f.held = false
		e.heldBytes -= f.size
		e.heldWorlds--
	}
	e.drop(f.world)
	f.world = nil
}

// drop returns a world buffer to the pool.
func (e *explorer) drop(b *worldBuf) {
	if b != nil {
		e.pool = append(e.pool, b)
	}
}

// acquire takes a world buffer from the pool, or makes one.
func (e *explorer) acquire() *worldBuf {
	if n := len(e.pool); n > 0 {
		b := e.pool[n-1]
		e.pool = e.pool[:n-1]
		return b
	}
	w := &sim.World{}
	w.SetDigest(false) // nothing in a search reads the trace digest
	return &worldBuf{w: w}
}

// note records the peak of the counted bytes, with extra bytes of a child
// about to be kept.
func (e *explorer) note(extra int64) {
	if m := e.memory() + extra; m > e.peak {
		e.peak = m
		if e.meter != nil {
			e.meter.reserve(e)
		}
	}
}

// memory is the number of bytes the search holds, counted from sizes:
// the visited set (and, while it grows, its doubled table: see search),
// the stack (frames, alternative vectors, the path), the shard plan's
// prefixes, the worlds the levels hold and two scratch worlds (the child being stepped
// and the replay buffer), each world at its counted size
// (World.StateBytes). It does not read the Go runtime, nor the capacity of
// buffers, so a search that hits the budget hits it at the same state on
// every run and for every number of workers; the process's resident
// memory is larger by the runtime, the buffers' spare capacity, the
// invariants' copies and the garbage collector's headroom.
func (e *explorer) memory() int64 {
	return e.visited.bytes() + e.heldBytes + 2*e.maxWorld + e.frameBytes + e.fixedBytes
}

// holdAgain gives level j back its world in the checkpoint discipline, as
// a replay from the nearest level below that holds one would: every level
// in between that still has alternatives to try holds its world again.
// The replayed steps are counted here; the world itself is rebuilt by
// rebuild only if a step must actually be computed at that level.
func (e *explorer) holdAgain(j int) {
	i := j - 1
	for !e.stack[i].held {
		i--
	}
	for m := i + 1; m <= j; m++ {
		f := &e.stack[m]
		e.res.Replayed++
		if (m == j || !f.done) && !f.held {
			f.held = true
			e.heldBytes += f.size
			e.heldWorlds++
		}
	}
	e.res.Worlds = max(e.res.Worlds, e.heldWorlds)
	e.note(0)
}

// rebuild makes level j's world at hand: it copies the nearest level below
// that has one and replays the recorded choices of the levels in between,
// handing a copy to every level that holds its world. The replay is exact
// — same world, same answers — so the search does not depend on which
// worlds were at hand.
func (e *explorer) rebuild(j int) {
	i := j - 1
	for e.stack[i].world == nil {
		i--
	}
	cur := e.acquire()
	cur.w.CopyFrom(e.stack[i].world.w)
	for m := i + 1; m <= j; m++ {
		f := &e.stack[m]
		e.replay.reset(e.path[f.viaStart:f.viaEnd], e.left(e.stack[m-1].faults))
		cur.w.SetChooser(&e.replay)
		cur.w.Step()
		switch {
		case m == j:
			f.world = cur
		case f.held && f.world == nil:
			b := e.acquire()
			b.w.CopyFrom(cur.w)
			f.world = b
		}
	}
}

// pathHash is the identity of a level: its parent's identity and the
// choices that led from the parent to it. It folds the choices as the
// engine's state hash folds a word, and finishes with splitmix, so the
// identities (and the shard plans they key) are those the search had
// inside package sim.
func pathHash(parent uint64, via []int) uint64 {
	h := parent
	for _, v := range via {
		h = (h ^ uint64(v)) * 0xff51afd7ed558ccd
		h ^= h >> 32
	}
	return splitmix(h ^ splitmix(uint64(len(via))))
}

// splitmix is the finaliser of SplitMix64: a well-mixed 64-bit value of x.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// left is what the search's bounds still allow after a path that spent
// the packed budget spent (faults and preemptions, see packBudget).
func (e *explorer) left(spent int) int {
	return packBudget(e.opt.MaxFaults-budgetFaults(spent), e.opt.MaxPreemptions-budgetPreemptions(spent))
}

// stateKey is the key of a state in the visited set. The set keeps, per
// key, the fewest faults used to reach it, which is sound for one budget
// only; the preemptions used are therefore part of the key, so a state
// reached with a different number of preemptions is a different entry and
// never skipped for one reached with more preemption budget left.
func stateKey(fp sim.Fingerprint, spent int) sim.Fingerprint {
	p := budgetPreemptions(spent)
	if p == 0 {
		return fp
	}
	return sim.Fingerprint(splitmix(uint64(fp) ^ uint64(p)*0x9e3779b97f4a7c15))
}
