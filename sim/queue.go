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
type item struct {
	at          Time
	seq         uint64
	kind        itemKind
	node        NodeID
	incarnation uint32 // timers: the node incarnation that set it
	urgent      bool   // a zero-delay store step: runs before other items at the same time
	msg         Message
}

func (a *item) less(b *item) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.urgent != b.urgent {
		return a.urgent
	}
	return a.seq < b.seq
}

// queue is a typed 4-ary min-heap of items: no interface boxing, no
// allocation once its backing array has grown.
type queue struct {
	items []item
}

func (q *queue) len() int { return len(q.items) }

func (q *queue) push(it item) {
	q.items = append(q.items, item{})
	items := q.items
	// Sift up with a hole: parents move down one copy each, and it is
	// written once where it belongs (no swaps of whole items).
	i := len(items) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !it.less(&items[p]) {
			break
		}
		items[i] = items[p]
		i = p
	}
	items[i] = it
}

// peek returns the smallest item; the queue must not be empty.
func (q *queue) peek() *item { return &q.items[0] }

// pop removes and returns the smallest item; the queue must not be
// empty. The last item fills the hole left at the root, sifted down with
// one copy per level.
func (q *queue) pop() item {
	items := q.items
	top := items[0]
	n := len(items) - 1
	if n == 0 {
		q.items = items[:0]
		return top
	}
	last := &items[n]
	i := 0
	for {
		first := 4*i + 1
		if first >= n {
			break
		}
		m := first
		end := min(first+4, n)
		for c := first + 1; c < end; c++ {
			if items[c].less(&items[m]) {
				m = c
			}
		}
		if !items[m].less(last) {
			break
		}
		items[i] = items[m]
		i = m
	}
	items[i] = *last
	q.items = items[:n]
	return top
}
