package sim

// stateHasher folds fixed-width words into a 64-bit hash: the explorer's
// fingerprint is computed straight from the world's fields, with no
// encoding buffer in between (AppendState remains the readable statement
// of what a state is; hashState walks exactly the same fields). It has two
// lanes, so that the multiplications of a pair of words overlap.
type stateHasher struct{ h, g uint64 }

// word mixes one 64-bit word into the hash.
func (s *stateHasher) word(x uint64) {
	h := (s.h ^ x) * 0xff51afd7ed558ccd
	s.h = h ^ h>>32
}

// pair mixes two words, one into each lane.
func (s *stateHasher) pair(x, y uint64) {
	h := (s.h ^ x) * 0xff51afd7ed558ccd
	g := (s.g ^ y) * 0xc4ceb9fe1a85ec53
	s.h, s.g = h^h>>32, g^g>>29
}

// bytes mixes a byte string (an invariant's or a pause's encoding),
// length first so that consecutive strings cannot run into each other.
func (s *stateHasher) bytes(b []byte) {
	s.word(uint64(HashBytes(b)))
}

// sum finishes the hash.
func (s *stateHasher) sum() Fingerprint {
	return Fingerprint(splitmix(s.h ^ splitmix(s.g)))
}

// pack32 puts two 32-bit values into one word.
func pack32(lo, hi int32) uint64 { return uint64(uint32(lo)) | uint64(uint32(hi))<<32 }

// hashState is the fingerprint of the world's canonical state: the same
// fields as AppendState, in the same order, each a whole word. scratch
// holds the encodings of invariants and paused nodes between calls.
func (w *World) hashState(scratch *[]byte) Fingerprint {
	var s stateHasher
	s.h, s.g = 0x9e3779b97f4a7c15, 0x94d049bb133111eb
	for i := range w.nodes {
		ns := &w.nodes[i]
		s.word(0xf0<<8 | uint64(boolByte(ns.down)))
		specs := w.cfg.Topology.Nodes[i].Tables
		if ns.paused {
			*scratch = ns.appendPause((*scratch)[:0], w.now, specs, w.names)
			s.bytes(*scratch)
		} else {
			s.word(0)
		}
		for t := range ns.tables {
			tb := &ns.tables[t]
			if len(tb.keys) == 0 {
				s.word(0)
				continue
			}
			age := w.now - tb.rows[0].At
			if specs[t].AgeFree {
				age = 0 // no row of it has a time (AppendState)
			}
			s.pair(tb.rowsHash(), uint64(age))
		}
	}
	s.word(0xf1)
	order := w.liveQueueOrder()
	s.word(uint64(len(order)))
	for _, i := range order {
		it := &w.q.items[i]
		m := &it.msg
		s.pair(uint64(it.kind)|uint64(it.node)<<8|uint64(m.From)<<16|uint64(m.To)<<24|uint64(uint32(m.Status))<<32, w.queuedKindKey(it))
		s.pair(uint64(it.at-w.now), pack32(int32(m.Op), m.Attempt))
		s.pair(uint64(m.Key), uint64(m.Payload))
		s.word(uint64(m.Value))
	}
	s.word(0xf2)
	for i := 1; i < len(w.checker.ops); i++ {
		t := &w.checker.ops[i]
		for k := 0; k < w.checker.nsinks; k += 2 {
			hi := int32(0)
			if k+1 < w.checker.nsinks {
				hi = t.Sinks[k+1]
			}
			s.word(pack32(t.Sinks[k], hi))
		}
		s.word(uint64(t.nDistinct))
		for d := int32(0); d < t.nDistinct; d++ {
			s.pair(uint64(t.distinct[d].value), uint64(t.distinct[d].status))
		}
	}
	s.word(0xf3)
	if len(w.invs) > 0 {
		b := (*scratch)[:0]
		for _, inv := range w.invs {
			b = inv.AppendState(b)
		}
		*scratch = b
		s.bytes(b)
	}
	return s.sum()
}

// sortByQueueOrder sorts indices of items by (time, sequence), the order
// the engine pops them. The lists are short (the events in flight), so an
// insertion sort beats a generic sort with a comparison closure.
// liveQueueOrder lists the indexes of the queue's items in queue order,
// leaving out the timers of a node's earlier incarnation (they never fire):
// the queue as Fingerprint, the state hash and the symmetry signature see
// it. The list reuses, and is kept in, w.fpOrder.
func (w *World) liveQueueOrder() []int32 {
	order := w.fpOrder[:0]
	for i := range w.q.items {
		it := &w.q.items[i]
		if it.kind == itemTimer && it.incarnation != w.nodes[it.node].incarnation {
			continue
		}
		order = append(order, int32(i))
	}
	sortByQueueOrder(order, w.q.items)
	w.fpOrder = order
	return order
}

func sortByQueueOrder(order []int32, items []item) {
	for i := 1; i < len(order); i++ {
		x := order[i]
		xi := &items[x]
		j := i
		for j > 0 && xi.less(&items[order[j-1]]) {
			order[j] = order[j-1]
			j--
		}
		order[j] = x
	}
}

// rowsHash is the hash of a non-empty table's rows with every row's age
// taken relative to the first row's (At₀ − Atᵢ): together with the first
// row's age (now − At₀), which hashState mixes in beside it, that is
// exactly the rows' ages relative to now, so the fingerprint tells apart
// the same states as when each row's age is hashed. The part that does
// not depend on now is cached in the table until its next write, so a
// step re-hashes only the tables it wrote.
func (t *Table) rowsHash() uint64 {
	if t.fp != 0 {
		return t.fp
	}
	var s stateHasher
	s.h, s.g = 0x2545f4914f6cdd1d, uint64(len(t.keys))
	at0 := t.rows[0].At
	for r := range t.keys {
		row := &t.rows[r]
		s.pair(uint64(t.keys[r]), pack32(row.State, row.Status))
		s.pair(uint64(row.Value), uint64(row.Aux))
		s.word(uint64(at0 - row.At))
	}
	fp := uint64(s.sum()) | 1 // never 0, the mark of "not computed"
	t.fp = fp
	return fp
}
