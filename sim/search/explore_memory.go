package search

import (
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/oncesim/once/sim"
)

// The memory of parts that run at once.
//
// Each part of a split search (explore_parts.go) has the whole of
// --max-memory, so that where a part is cut, and so everything the search
// reports, does not depend on the number of workers. Several parts running
// at once must still hold no more than the budget together: the parts
// reserve what they count from one partsMeter, and when a reservation
// would take the sum past the budget, the lowest-numbered running part
// goes on (it takes what it needs, and the others are told to stop), and
// every other part stops, gives its memory back and is run again, from
// its start, when every part below it has ended. A part's search is
// deterministic, so the part run again reports what it would have
// reported the first time; the workers only lose the work they threw
// away. When memory is short the search therefore runs its parts one
// after another, as on one worker; when it is not, nothing is stopped.

// meterChunk is the granularity of reservations: a part reserves its
// counted bytes rounded up to it, so the shared meter is touched once a
// megabyte, not once a state.
const meterChunk = 1 << 20

// partsMeter is the memory reserved by the running parts.
type partsMeter struct {
	budget int64
	mu     sync.Mutex
	freed  *sync.Cond // a part ended and gave its memory back
	total  int64
	held   [exploreParts]int64
	run    [exploreParts]bool
	stop   [exploreParts]atomic.Bool
}

func newPartsMeter(budget int64) *partsMeter {
	m := &partsMeter{budget: budget}
	m.freed = sync.NewCond(&m.mu)
	return m
}

// start marks part j running with nothing reserved.
func (m *partsMeter) start(j int) {
	m.mu.Lock()
	m.run[j], m.held[j] = true, 0
	m.stop[j].Store(false)
	m.mu.Unlock()
}

// end gives back what part j reserved.
func (m *partsMeter) end(j int) {
	m.mu.Lock()
	m.total -= m.held[j]
	m.run[j], m.held[j] = false, 0
	m.freed.Broadcast()
	m.mu.Unlock()
}

// aborted reports whether part j was told to stop.
func (m *partsMeter) aborted(j int) bool { return m.stop[j].Load() }

// lowest is the lowest-numbered running part, or exploreParts; m.mu held.
func (m *partsMeter) lowest() int {
	for j, r := range m.run {
		if r {
			return j
		}
	}
	return exploreParts
}

// reserve brings e's reservation up to its peak (in chunks): past the
// budget, e goes on if it is the lowest running part (the others are told
// to stop, and e waits until they have given their memory back), or is
// told to stop itself.
func (m *partsMeter) reserve(e *explorer) {
	want := (e.peak + meterChunk - 1) / meterChunk * meterChunk
	if want <= e.reserved {
		return
	}
	j := e.part
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total += want - m.held[j]
	m.held[j] = want
	e.reserved = want
	if m.total <= m.budget {
		return
	}
	if low := m.lowest(); low != j {
		m.stop[j].Store(true)
		return
	}
	others := false
	for k, r := range m.run {
		if r && k != j {
			m.stop[k].Store(true)
			others = true
		}
	}
	// Wait for the stopped parts to give their memory back before taking
	// more: without the wait, the lowest part's next allocation (a
	// doubled visited set) would sit beside what they still hold.
	stopped := others
	for others && m.total > m.budget {
		m.freed.Wait()
		others = false
		for k, r := range m.run {
			others = others || (r && k != j)
		}
	}
	if stopped {
		// What the stopped parts held is garbage now: collect it and
		// give it back to the system before this part takes more, so
		// the process's resident size follows the meter (a rare event:
		// only when memory runs short).
		debug.FreeOSMemory()
	}
}

// partsQueue deals the parts to the workers: in index order, except that
// a part stopped for memory (deferred) runs again before any new part,
// and only once no part below it is running.
type partsQueue struct {
	workers  int
	meter    *partsMeter // nil with one worker: nothing runs at once
	mu       sync.Mutex
	cond     *sync.Cond
	next     int
	deferred []int // sorted
	running  [exploreParts]bool
}

func newPartsQueue(workers int, budget, fixed int64) *partsQueue {
	q := &partsQueue{workers: workers}
	q.cond = sync.NewCond(&q.mu)
	if workers > 1 {
		q.meter = newPartsMeter(budget)
		q.meter.total = fixed // the shared plan, held once
	}
	return q
}

// clone copies root for a part run again, one copy at a time.
func (q *partsQueue) clone(root *sim.World) *sim.World {
	q.mu.Lock()
	defer q.mu.Unlock()
	return root.Clone()
}

// take returns the next part to run, or -1 when there is none.
func (q *partsQueue) take() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if len(q.deferred) > 0 {
			d := q.deferred[0]
			if !slicesContainsBelow(q.running[:], d) {
				q.deferred = q.deferred[1:]
				q.begin(d)
				return d
			}
			q.cond.Wait()
			continue
		}
		if q.next < exploreParts {
			j := q.next
			q.next++
			q.begin(j)
			return j
		}
		return -1
	}
}

func (q *partsQueue) begin(j int) {
	q.running[j] = true
	if q.meter != nil {
		q.meter.start(j)
	}
}

// done records that part j ended.
func (q *partsQueue) done(j int, _ *Result) {
	q.mu.Lock()
	q.running[j] = false
	if q.meter != nil {
		q.meter.end(j)
	}
	q.cond.Broadcast()
	q.mu.Unlock()
}

// defer_ records that part j stopped for memory and must run again.
func (q *partsQueue) defer_(j int) {
	q.mu.Lock()
	q.running[j] = false
	q.meter.end(j)
	i := 0
	for i < len(q.deferred) && q.deferred[i] < j {
		i++
	}
	q.deferred = append(q.deferred[:i], append([]int{j}, q.deferred[i:]...)...)
	q.cond.Broadcast()
	q.mu.Unlock()
}

// slicesContainsBelow reports whether any part below d is running.
func slicesContainsBelow(running []bool, d int) bool {
	for _, r := range running[:d] {
		if r {
			return true
		}
	}
	return false
}

// bytes is what a plan holds: its prefixes' owners.
func (s *Shard) bytes() int64 {
	if s == nil {
		return 0
	}
	return int64(len(s.owner)) * 48 // key, value and the map's overhead per entry
}
