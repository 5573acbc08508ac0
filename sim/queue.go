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
	q.items = append(q.items, it)
	i := len(q.items) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !q.items[i].less(&q.items[p]) {
			break
		}
		q.items[i], q.items[p] = q.items[p], q.items[i]
		i = p
	}
}

// peek returns the smallest item; the queue must not be empty.
func (q *queue) peek() *item { return &q.items[0] }

func (q *queue) pop() item {
	top := q.items[0]
	last := len(q.items) - 1
	q.items[0] = q.items[last]
	q.items = q.items[:last]
	n := last
	i := 0
	for {
		first := 4*i + 1
		if first >= n {
			break
		}
		m := first
		end := first + 4
		if end > n {
			end = n
		}
		for c := first + 1; c < end; c++ {
			if q.items[c].less(&q.items[m]) {
				m = c
			}
		}
		if !q.items[m].less(&q.items[i]) {
			break
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
	return top
}
