package sim

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// queueModel is the "dumb" reference queue: an unsorted slice whose
// smallest (at, urgent first, seq) item is found by sorting it on every
// pop.
type queueModel []item

func (m *queueModel) pop() item {
	slices.SortFunc(*m, func(a, b item) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		if a.urgent() != b.urgent() {
			if a.urgent() {
				return -1
			}
			return 1
		}
		return int(int64(a.seq()) - int64(b.seq()))
	})
	top := (*m)[0]
	*m = (*m)[1:]
	return top
}

// checkHeap asserts the 4-ary heap invariant: no child is less than its
// parent.
func checkHeap(t *rapid.T, q *queue) {
	for i := 1; i < len(q.items); i++ {
		p := (i - 1) / 4
		if q.items[i].less(&q.items[p]) {
			t.Fatalf("heap invariant broken: item %d (at %d seq %d) < parent %d (at %d seq %d)",
				i, q.items[i].at, q.items[i].seq(), p, q.items[p].at, q.items[p].seq())
		}
	}
}

// TestQueueMatchesSortedSlice interleaves random pushes and pops and checks
// every pop against the reference: the queue yields items in (at, seq)
// order, so items at equal times come out in insertion order. Times are
// drawn from a narrow range to make ties common.
func TestQueueMatchesSortedSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var q queue
		var ref queueModel
		seq := uint64(0)
		t.Repeat(map[string]func(*rapid.T){
			"push": func(t *rapid.T) {
				n := rapid.IntRange(1, 20).Draw(t, "n")
				for range n {
					it := item{
						at:   Time(rapid.Int64Range(0, 15).Draw(t, "at")),
						ord:  order(rapid.Bool().Draw(t, "urgent"), seq),
						kind: itemDeliver,
						node: NodeID(seq % 7),
						msg:  Message{ID: uint32(seq)},
					}
					seq++
					q.push(it)
					ref = append(ref, it)
				}
			},
			"remove": func(t *rapid.T) {
				node := NodeID(rapid.IntRange(0, 6).Draw(t, "node"))
				drop := func(it *item) bool { return it.node == node }
				want := len(ref)
				ref = slices.DeleteFunc(ref, func(it item) bool { return drop(&it) })
				if got := q.removeIf(drop); got != want-len(ref) {
					t.Fatalf("removeIf removed %d items, want %d", got, want-len(ref))
				}
			},
			"copy": func(t *rapid.T) {
				// A world copied for a snapshot or a child step: into a
				// queue that held something else or into a fresh one. The
				// copy is then pushed to and popped from, and the source
				// must not see it (no shared backing array); half of the
				// time the copy goes on as the queue.
				var c queue
				for range rapid.IntRange(0, 40).Draw(t, "held") {
					c.push(item{at: Time(len(c.items)), ord: order(false, uint64(len(c.items)))})
				}
				c.copyFrom(&q)
				cref := slices.Clone(ref)
				for range rapid.IntRange(0, 3).Draw(t, "copy pushes") {
					it := item{at: Time(rapid.Int64Range(0, 15).Draw(t, "at")), ord: order(false, seq), kind: itemDeliver, msg: Message{ID: uint32(seq)}}
					seq++
					c.push(it)
					cref = append(cref, it)
				}
				if len(cref) > 0 && rapid.Bool().Draw(t, "copy pops") {
					if got, want := c.pop(), cref.pop(); got != want {
						t.Fatalf("copy's pop = (at %d seq %d), want (at %d seq %d)", got.at, got.seq(), want.at, want.seq())
					}
				}
				if !sameItems(q.items, ref) {
					t.Fatalf("the source queue changed when its copy was used")
				}
				if rapid.Bool().Draw(t, "keep the copy") {
					q, ref = c, cref
				}
			},
			"clear": func(t *rapid.T) {
				if rapid.IntRange(0, 9).Draw(t, "rarely") != 0 {
					t.Skip("kept")
				}
				q.clear()
				ref = ref[:0]
			},
			"pop": func(t *rapid.T) {
				if len(ref) == 0 {
					t.Skip("empty")
				}
				got, want := q.pop(), ref.pop()
				if got != want {
					t.Fatalf("pop = (at %d seq %d), want (at %d seq %d)", got.at, got.seq(), want.at, want.seq())
				}
			},
			"": func(t *rapid.T) {
				if q.len() != len(ref) {
					t.Fatalf("len = %d, want %d", q.len(), len(ref))
				}
				checkHeap(t, &q)
				if q.len() > 0 {
					want := slices.MinFunc(ref, func(a, b item) int {
						if a.less(&b) {
							return -1
						}
						if b.less(&a) {
							return 1
						}
						return 0
					})
					if p := q.peek(); p.at != want.at || p.ord != want.ord {
						t.Fatalf("peek = (at %d seq %d), want (at %d seq %d)", p.at, p.seq(), want.at, want.seq())
					}
				}
			},
		})
		// Drain: the rest must come out in order too.
		for len(ref) > 0 {
			got, want := q.pop(), ref.pop()
			if got != want {
				t.Fatalf("drain pop = (at %d seq %d), want (at %d seq %d)", got.at, got.seq(), want.at, want.seq())
			}
		}
		if q.len() != 0 {
			t.Fatalf("queue has %d items after the reference drained", q.len())
		}
	})
}

// sameItems says whether a queue's items are those of ref, in any layout.
func sameItems(items []item, ref queueModel) bool {
	if len(items) != len(ref) {
		return false
	}
	seqs := func(its []item) []uint64 {
		s := make([]uint64, len(its))
		for i := range its {
			s[i] = its[i].ord
		}
		slices.Sort(s)
		return s
	}
	return slices.Equal(seqs(items), seqs(ref))
}

// TestQueueEqualTimesFIFO pushes many items at one time, interleaved with
// items at other times pushed out of order, and checks that each time's
// items pop in the order they were pushed.
func TestQueueEqualTimesFIFO(t *testing.T) {
	var q queue
	const n = 500
	times := []Time{7, 3, 7, 0, 3, 7}
	for i := range uint64(n) {
		q.push(item{at: times[i%uint64(len(times))], ord: order(false, i)})
	}
	lastAt, lastSeq := Time(-1), uint64(0)
	for i := 0; i < n; i++ {
		it := q.pop()
		if it.at < lastAt || (it.at == lastAt && it.seq() <= lastSeq) {
			t.Fatalf("pop %d = (at %d seq %d) after (at %d seq %d)", i, it.at, it.seq(), lastAt, lastSeq)
		}
		lastAt, lastSeq = it.at, it.seq()
	}
}

// TestQueueReusesCapacity checks the "no allocation once grown" claim of
// the queue: a steady push/pop cycle at constant size allocates nothing.
func TestQueueReusesCapacity(t *testing.T) {
	var q queue
	for i := range uint64(1000) {
		q.push(item{at: Time(i * 7 % 101), ord: order(false, i)})
	}
	seq := uint64(1000)
	allocs := testing.AllocsPerRun(100, func() {
		for range 100 {
			it := q.pop()
			it.at += 13
			it.ord = order(false, seq)
			seq++
			q.push(it)
		}
	})
	if allocs != 0 {
		t.Fatalf("steady push/pop allocates %.1f times per 100 cycles", allocs)
	}
}

// TestRemoveTimersIsRemoveIf: the written-out timer cancel removes what
// removeIf removes with the same test, and leaves the same pop order.
func TestRemoveTimersIsRemoveIf(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var a, b queue
		n := rapid.IntRange(0, 40).Draw(t, "n")
		for i := range n {
			it := item{
				at:          Time(rapid.Int64Range(0, 9).Draw(t, "at")),
				ord:         order(rapid.Bool().Draw(t, "urgent"), uint64(i)),
				kind:        rapid.SampledFrom([]itemKind{itemDeliver, itemTimer}).Draw(t, "kind"),
				node:        NodeID(rapid.IntRange(0, 2).Draw(t, "node")),
				incarnation: uint32(rapid.IntRange(0, 1).Draw(t, "incarnation")),
				msg:         Message{ID: uint32(i), Kind: MsgKind(rapid.IntRange(0, 2).Draw(t, "timer")), Op: OpID(rapid.IntRange(0, 2).Draw(t, "op"))},
			}
			a.push(it)
			b.push(it)
		}
		node, inc := NodeID(rapid.IntRange(0, 2).Draw(t, "cancel node")), uint32(rapid.IntRange(0, 1).Draw(t, "cancel incarnation"))
		kind, op := TimerKind(rapid.IntRange(0, 2).Draw(t, "cancel timer")), OpID(rapid.IntRange(0, 2).Draw(t, "cancel op"))
		got := a.removeTimers(node, inc, kind, op)
		want := b.removeIf(func(it *item) bool {
			return it.kind == itemTimer && it.node == node && it.incarnation == inc && TimerKind(it.msg.Kind) == kind && it.msg.Op == op
		})
		if got != want {
			t.Fatalf("removeTimers removed %d, removeIf %d", got, want)
		}
		for a.len() > 0 {
			x, y := a.pop(), b.pop()
			if x.msg.ID != y.msg.ID {
				t.Fatalf("after the cancel, pop order differs: item %d, want %d", x.msg.ID, y.msg.ID)
			}
		}
	})
}
