package sim

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// Parallel search by speculation. The depth-first search itself stays on
// one goroutine and decides everything — which alternative comes next,
// which state is new, when a budget is hit — in exactly the order of a
// one-worker search, so the verdict, the counterexample and every
// statistic are the same for any number of workers. What the other
// workers (helpers) take off it is the expensive part: copying a world,
// running a step, judging and fingerprinting the child.
//
// When a helper is idle and the search leaves a level with alternatives
// still to try, it hands the helper a copy of that level's world: a task.
// The helper searches those remaining alternatives and their subtrees on
// its own, depth first with a visited set of its own, and records every
// step it runs — keyed by the level's identity (a hash of the choices from
// the root) and the alternative — up to specTaskRecords steps. When the
// search comes back to that level, it takes each step from the records
// instead of running it. A step is a pure function of the level's world
// and the alternative, so a record is exactly what the search would have
// computed; where there is none (the helper had not got there, or pruned
// a state the search must explore), the search runs the step itself,
// rebuilding the world by replay. A helper's states that the search later
// prunes were wasted work, never a different answer. The search retires a
// task when it pops the level the task started from.
//
// The helpers' records are not part of the counted memory (the count must
// not depend on the number of workers); each task holds at most
// specTaskRecords records (about 3.5 MB) and at most four tasks per helper
// are alive.
type speculation struct {
	tasks chan *specTask
	idle  atomic.Int32 // helpers waiting for a task and not yet offered one
	alive int          // tasks not yet retired (the search's goroutine only)
	limit int
	all   []*specTask // every task handed out, so that stop can end them
	wg    sync.WaitGroup
}

// specTaskRecords bounds the steps one task records.
const specTaskRecords = 1 << 15

// specTask is a helper's search of the remaining alternatives of one level.
type specTask struct {
	parent   *specTask // the task whose records reached the level, if any
	root     World     // a copy of the level's world
	level    int       // the level's index on the search's stack
	faults   int
	vec      []int // the first alternative to search
	pathHash uint64

	mu      sync.Mutex
	index   map[uint64]int32
	recs    []specRecord
	choices []int // each record's alternative vector, then its answers
	stopped atomic.Bool
}

// specRecord is one step a helper ran.
type specRecord struct {
	at       int32 // the record's vector and answers start at choices[at]
	vecLen   int32
	viaLen   int32
	used     int32
	nextLen  int32
	stepped  bool
	violated bool
	end      End
	fp       Fingerprint
	size     int64
}

func startSpeculation(e *explorer, helpers int) *speculation {
	s := &speculation{tasks: make(chan *specTask, helpers), limit: 4 * helpers}
	s.idle.Store(int32(helpers))
	opt := e.opt
	opt.Stop, opt.Progress, opt.Audit, opt.Workers = nil, nil, false, 1
	opt.MaxStates, opt.MaxMemory = math.MaxInt, math.MaxInt64
	for range helpers {
		s.wg.Add(1)
		go s.help(opt, e.every, e.window)
	}
	return s
}

// help runs tasks until the search ends.
func (s *speculation) help(opt ExploreOptions, every, window int) {
	defer s.wg.Done()
	for task := range s.tasks {
		if depth := opt.MaxDepth - task.level; depth > 0 && !task.stopped.Load() {
			h := newExplorer(opt, every, window)
			h.opt.MaxDepth = depth
			h.out = task
			b := h.acquire()
			b.w.CopyFrom(&task.root)
			h.stack = append(h.stack, frame{world: b, held: true, size: b.w.stateBytes(),
				faults: task.faults, vec: slices.Clone(task.vec), pathHash: task.pathHash})
			h.search()
		}
		s.idle.Add(1)
	}
}

// stop ends the helpers and waits for them.
func (s *speculation) stop() {
	for _, t := range s.all {
		t.stopped.Store(true)
	}
	close(s.tasks)
	s.wg.Wait()
}

// offer hands level top of e's stack to an idle helper, if there is one.
func (s *speculation) offer(e *explorer, top int) {
	if s == nil || s.idle.Load() <= 0 || s.alive >= s.limit {
		return
	}
	f := &e.stack[top]
	if f.own != nil || f.world == nil || f.done {
		return
	}
	s.idle.Add(-1)
	s.alive++
	task := &specTask{parent: f.task, level: top, faults: f.faults, vec: slices.Clone(f.vec),
		pathHash: f.pathHash, index: map[uint64]int32{}}
	task.root.CopyFrom(f.world.w)
	f.own = task
	s.all = append(s.all, task)
	s.tasks <- task
}

// retire drops a task the search no longer needs.
func (s *speculation) retire(t *specTask) {
	t.stopped.Store(true)
	s.alive--
	s.all = slices.DeleteFunc(s.all, func(u *specTask) bool { return u == t })
}

// full reports whether the task should record no more.
func (t *specTask) full() bool {
	return t.stopped.Load() || len(t.recs) >= specTaskRecords
}

// record saves the step just run from level f (before f moves on to its
// next alternative).
func (t *specTask) record(f *frame, tr *transition) {
	t.mu.Lock()
	defer t.mu.Unlock()
	at := len(t.choices)
	t.choices = append(append(t.choices, f.vec...), tr.via...)
	t.index[alternativeKey(f.pathHash, f.vec)] = int32(len(t.recs))
	t.recs = append(t.recs, specRecord{at: int32(at), vecLen: int32(len(f.vec)), viaLen: int32(len(tr.via)),
		used: int32(tr.used), nextLen: int32(tr.nextLen), stepped: tr.stepped, violated: tr.violated,
		end: tr.end, fp: tr.fp, size: tr.size})
}

// find returns the recorded step of alternative vec under key, its
// answers copied into *buf.
func (t *specTask) find(key uint64, vec []int, buf *[]int) (transition, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i, ok := t.index[key]
	if !ok {
		return transition{}, false
	}
	r := &t.recs[i]
	if !slices.Equal(t.choices[r.at:r.at+r.vecLen], vec) {
		return transition{}, false
	}
	via := t.choices[r.at+r.vecLen : r.at+r.vecLen+r.viaLen]
	*buf = append((*buf)[:0], via...)
	return transition{via: *buf, used: int(r.used), nextLen: int(r.nextLen), stepped: r.stepped,
		end: r.end, violated: r.violated, fp: r.fp, size: r.size}, true
}
