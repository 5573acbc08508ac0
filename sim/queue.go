package sim

// itemKind says what a queued item does when it is popped.
type itemKind uint8

const (
	itemDeliver itemKind = iota + 1 // deliver msg to node
	itemTimer                       // fire a timer of node (msg holds the payload)
	itemRestart                     // restart a crashed node
	itemStart                       // boot a node for the first time
	itemResume                      // wake a paused node
)

// item is one scheduled event. Items are ordered by (at, urgent, seq):
// time first, then the immediate steps of a store exchange (see
// NodeSpec.Store), then insertion order, so equal-time events run in the
// order they were scheduled, on every machine.
//
// The small fields come together after the two words of the order, so
// that an item is 72 bytes, not 80: the heap moves whole items.
type item struct {
	at Time
	// ord is (urgent, seq) in one word: the insertion sequence number,
	// with bit 63 set unless the item is urgent (a zero-delay store step,
	// which runs before other items at the same time). (at, ord) is the
	// order, two compares.
	ord         uint64
	incarnation uint32 // timers: the node incarnation that set it
	kind        itemKind
	node        NodeID
	msg         Message
}

// notUrgent is the bit of item.ord that orders an item after the urgent
// ones of its time.
const notUrgent = 1 << 63

// order packs (urgent, seq) into an item's ord.
func order(urgent bool, seq uint64) uint64 {
	if urgent {
		return seq
	}
	return seq | notUrgent
}

func (a *item) urgent() bool { return a.ord&notUrgent == 0 }
func (a *item) seq() uint64  { return a.ord &^ notUrgent }

func (a *item) less(b *item) bool { return before(a.at, a.ord, b) }

// before reports whether an item ordered by (at, ord) comes before b.
func before(at Time, ord uint64, b *item) bool {
	return at < b.at || at == b.at && ord < b.ord
}

// queue holds the scheduled items. A run keeps few in flight (a seeded
// run of a catalog scenario, 5 to 15), and for those a sorted slice beats
// a heap: a pop takes the first item and compares nothing, an insertion
// scans a few items and moves the shorter side by one — where a heap's
// every pop sifts down through compares no branch predictor can guess.
// Past sortedMax items it is a typed 4-ary min-heap (a sorted slice is a
// valid heap, so the switch moves nothing) until it is empty again: a
// large queue is the heap's case. Either way no interface boxing, and no
// allocation once its backing array has grown.
type queue struct {
	// items are the queued items: sorted in pop order (items[0] next)
	// unless heap is set, a 4-ary min-heap then.
	items []item
	heap  bool
	// buf is the backing array of a sorted queue, whose items are
	// buf[head:head+len(items)]: a pop advances head, and an insertion
	// moves the items before it down by one or those after it up by
	// one, whichever are fewer.
	buf  []item
	head int
}

// sortedMax is the size up to which the queue stays a sorted slice.
const sortedMax = 32

func (q *queue) len() int { return len(q.items) }

func (q *queue) push(it item) { *q.place(it.at, it.ord) = it }

// clear empties the queue, keeping its memory.
func (q *queue) clear() {
	q.items = q.items[:0]
	q.heap = false
	q.recenter()
}

// copyFrom makes q a copy of src, reusing q's memory.
func (q *queue) copyFrom(src *queue) {
	if src.heap {
		q.items = append(q.items[:0], src.items...)
		q.heap = true
		return
	}
	q.clear()
	q.items = src.items // recenter copies them into q's own array
	q.recenter()
}

// recenter moves a sorted queue's items to the middle of buf, with room
// on both sides, growing buf first when it has not room for twice as
// many (so that a queue that drifts one way recenters now and then, not
// at every insertion).
func (q *queue) recenter() {
	n := len(q.items)
	buf := q.buf
	if len(buf) < 2*n+2 {
		buf = make([]item, max(32, 4*n))
	}
	head := (len(buf) - n) / 2
	copy(buf[head:], q.items) // a move within buf when it is the same array
	q.buf, q.head, q.items = buf, head, buf[head:head+n]
}

// place makes room for an item ordered by (at, ord) and returns
// it, with those fields set and the others zero, for the caller to fill:
// an item is written once, where it belongs. The pointer is good until
// the next push or pop.
func (q *queue) place(at Time, ord uint64) *item {
	if !q.heap && len(q.items) >= sortedMax {
		q.heap = true // already a valid heap: sorted
	}
	var it *item
	if q.heap {
		it = q.placeHeap(at, ord)
	} else {
		it = q.placeSorted(at, ord)
	}
	*it = item{at: at, ord: ord}
	return it
}

// placeSorted is place for a sorted queue.
func (q *queue) placeSorted(at Time, ord uint64) *item {
	n := len(q.items)
	i := 0 // the items that come before the new one
	for i < n && !before(at, ord, &q.items[i]) {
		i++
	}
	if i < n-i { // move the i items before it down by one
		if q.head == 0 {
			q.recenter()
		}
		q.head--
		w := q.buf[q.head : q.head+n+1]
		copy(w[:i], w[1:i+1])
		q.items = w
		return &w[i]
	}
	if q.head+n == len(q.buf) { // move the n-i items after it up by one
		q.recenter()
	}
	w := q.buf[q.head : q.head+n+1]
	copy(w[i+1:], w[i:n])
	q.items = w
	return &w[i]
}

// placeHeap is place for a heap. Parents move down one copy each (sift
// up with a hole, no swaps of whole items).
func (q *queue) placeHeap(at Time, ord uint64) *item {
	q.items = append(q.items, item{})
	items := q.items
	i := len(items) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !before(at, ord, &items[p]) {
			break
		}
		items[i] = items[p]
		i = p
	}
	return &items[i]
}

// peek returns the smallest item; the queue must not be empty.
func (q *queue) peek() *item { return &q.items[0] }

// pop removes and returns the smallest item; the queue must not be
// empty.
func (q *queue) pop() item {
	var it item
	q.popInto(&it)
	return it
}

// popInto moves the smallest item into *dst; the queue must not be empty.
func (q *queue) popInto(dst *item) {
	items := q.items
	*dst = items[0]
	if !q.heap {
		q.items = items[1:]
		q.head++
		return
	}
	// The heap: the last item fills the hole left at the root, sifted
	// down with one copy per level.
	n := len(items) - 1
	if n == 0 {
		q.clear() // sorted again
		return
	}
	last := &items[n]
	i := 0
	for {
		m := minChild(items, i, n)
		if m < 0 || !items[m].less(last) {
			break
		}
		items[i] = items[m]
		i = m
	}
	items[i] = *last
	q.items = items[:n]
}

// removeIf removes every item for which drop returns true and returns how
// many it removed. What is left keeps its order; a heap is rebuilt from
// it: the pop order is the (at, urgent, seq) order of the items, whatever
// their layout.
func (q *queue) removeIf(drop func(*item) bool) int {
	items := q.items
	n := 0
	for i := range items {
		if !drop(&items[i]) {
			if n != i {
				items[n] = items[i]
			}
			n++
		}
	}
	return q.cut(n)
}

// removeTimers is removeIf for the timers of one node incarnation, of one
// kind and operation (Context.CancelTimers, on every answered request):
// the test written out, no call per item. Most often no timer matches,
// and nothing moves.
func (q *queue) removeTimers(node NodeID, incarnation uint32, kind TimerKind, op OpID) int {
	items := q.items
	n := 0
	for i := range items {
		it := &items[i]
		if it.kind == itemTimer && it.node == node && it.incarnation == incarnation &&
			TimerKind(it.msg.Kind) == kind && it.msg.Op == op {
			continue
		}
		if n != i {
			items[n] = *it
		}
		n++
	}
	return q.cut(n)
}

// cut drops the items past the first n (what removeIf kept) and rebuilds
// a heap if any went, returning how many. A sorted queue stays sorted:
// removeIf keeps the order of what it keeps.
func (q *queue) cut(n int) int {
	items := q.items
	removed := len(items) - n
	if removed == 0 {
		return 0
	}
	clear(items[n:])
	q.items = items[:n]
	if !q.heap {
		return removed
	}
	for i := (n - 2) / 4; n > 1 && i >= 0; i-- {
		q.siftDown(i)
	}
	return removed
}

// minChild is the index of the least of the children of i among the
// first n items of the 4-ary heap, or -1 when i has none.
func minChild(items []item, i, n int) int {
	first := 4*i + 1
	if first >= n {
		return -1
	}
	m := first
	for c := first + 1; c < min(first+4, n); c++ {
		if items[c].less(&items[m]) {
			m = c
		}
	}
	return m
}

// siftDown moves the item at i down to where the heap order wants it.
func (q *queue) siftDown(i int) {
	items := q.items
	n := len(items)
	x := items[i]
	for {
		m := minChild(items, i, n)
		if m < 0 || !items[m].less(&x) {
			break
		}
		items[i] = items[m]
		i = m
	}
	items[i] = x
}
