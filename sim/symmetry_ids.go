package sim

import "slices"

// Issued ids: the second half of the symmetry of a configuration.
//
// A node that hands out numbers from a counter — a card gateway's
// transaction ids 8821, 8822, … in the order the charges happen — puts
// into the state values that say in which order things happened and
// nothing else: every role only copies them (into a stored response, a
// reply, an outcome) and compares them for equality, never by size, and a
// new one is always fresh (the counter's next value). Then renaming the
// ids present in a state by any permutation τ of them maps a run to a
// run, exactly as renaming the operations does: a state where op-3's
// charge got 8821 and op-5's 8822 has the futures of the one where op-5's
// got 8821 and op-3's 8822, renamed. The counter itself is not an issued
// id (its next value is what keeps new ids fresh, and it is the same in
// two states related by such a τ: a permutation of the ids present, all
// below it, leaves it alone).
//
// The explorer merges these states too when every node of the
// configuration implements IDRenamer: an operation's signature sees each
// id it owns (an id found only in that operation's parts) as its rank
// among the operation's own ids, not as its value; an id found in two
// operations' parts, or in a part of none, is seen as it is. Two states
// get one fingerprint only if a renaming of the operations together with
// a permutation of the owned ids maps one to the other: the ranks fix,
// operation by operation, which owned id maps to which (docs/explore.md).

// IDRenamer is implemented by a role (beside OpRenamer) that says where
// its rows and the messages it receives hold issued ids, so that the
// explorer can rename them. A role that holds none implements it with
// methods that do nothing: issued ids are renamed only when every node of
// a configuration implements it (a node that kept an id where no renamer
// reaches would tie the renaming down).
//
// The obligation of an implementation is the one of OpRenamer, for a
// permutation τ of the issued ids present in a state: the node handling a
// τ-renamed message in a τ-renamed state does what it did, renamed by τ.
// It holds when the role only copies ids and compares them for equality,
// and issues new ones from a counter that no renaming touches.
// TestRolesAreEquivariant (package scenarios) checks it on random
// schedules with random permutations of the ids.
type IDRenamer interface {
	// RenameRowIDs returns r, a row of the node's table t, with every
	// issued id in it mapped by to. Keys are never issued ids.
	RenameRowIDs(t TableID, key int64, r Record, to func(int64) int64) Record
	// RenameMessageIDs renames, in place, the slots of m (a message
	// delivered to the node or, when timer is set, a timer it set) that
	// hold issued ids.
	RenameMessageIDs(m *Message, timer bool, to func(int64) int64)
	// OutcomeIDs says whether the values the node records as outcomes
	// (Context.Outcome) are issued ids (or 0, none). The checker's
	// distinct outcomes are renamed when one node says so; the contract
	// is that the others record no outcomes.
	OutcomeIDs() bool
}

// maxPartIDs is the most issued ids one part (a row, a queued message,
// an operation's tally) may hold for its operation's signature to see
// them as ranks; a part with more makes the state be fingerprinted with
// its ids as they are.
const maxPartIDs = maxDistinct

// idPart is a part of one operation that holds issued ids, set aside in
// the signature pass until every id's owner is known: its hash with the
// ids left out, and the ids in slot order.
type idPart struct {
	h    uint64
	one  uint64 // a row's contribution when it holds one id, its operation's only one (0: not computed)
	op   OpID
	kind uint8 // idItem (rank: the place in the queue), idRow, idTally
	rank int32
	n    uint8
	ids  [maxPartIDs]int64
}

const (
	idItem uint8 = iota
	idRow
	idTally
)

// idLabel is what an operation's signature sees for an issued id: its
// rank among the ids its operation owns, tagged, or the id itself.
type idLabel struct {
	id    int64
	label uint64
	op    OpID // the owner (0: the label is the id)
}

// ownedTag marks a label that is a rank, not an id.
const ownedTag = 1 << 62

// idsOf returns the IDRenamer of every node of cfg, or nil when one does
// not implement it, and whether the checker's outcomes are issued ids.
func idsOf(cfg *Config) ([]IDRenamer, bool) {
	rs := make([]IDRenamer, len(cfg.Nodes))
	outcomes := false
	for i, n := range cfg.Nodes {
		r, ok := n.(IDRenamer)
		if !ok {
			return nil, false
		}
		rs[i] = r
		outcomes = outcomes || r.OutcomeIDs()
	}
	return rs, outcomes
}

// recordID is the renaming function of the signature pass: it notes an
// issued id of the part being normalised and answers 0 (keep: the id
// itself), so the part's hash leaves ids out or keeps them.
func (s *Symmetry) recordID(v int64, keep bool) int64 {
	if v == 0 {
		return 0
	}
	if len(s.cur) == maxPartIDs {
		s.overflow = true
	} else {
		s.cur = append(s.cur, v)
	}
	if keep {
		return v
	}
	return 0
}

// deferIDs sets a part of op aside with the ids in s.cur; it reports whether
// it did (a part with no ids is added to the signature at once).
func (s *Symmetry) deferIDs(h uint64, op OpID, kind uint8, rank int) bool {
	if len(s.cur) == 0 || s.overflow {
		return false
	}
	p := idPart{h: h, op: op, kind: kind, rank: int32(rank), n: uint8(len(s.cur))}
	copy(p.ids[:], s.cur)
	s.idParts = append(s.idParts, p)
	return true
}

// settleIDs gives every issued id met its label and adds the parts set
// aside to their operations' signatures. An id found only in one
// operation's parts is owned by it, and labelled by its rank among its
// operation's ids, ordered by a signature no renaming changes (the sum of
// the normalised parts that hold it, with the slot it holds in each),
// ties broken by value; any other id is labelled by itself. The ids of a
// state are few and close together (a counter's recent values), so they
// are tallied in tables indexed by id − the least; a state whose ids
// spread wider is fingerprinted with its ids as they are (overflow).
func (s *Symmetry) settleIDs() {
	s.labels = s.labels[:0]
	if len(s.idParts) == 0 || s.overflow {
		return
	}
	lo, hi := s.idParts[0].ids[0], s.idParts[0].ids[0]
	for i := range s.idParts {
		p := &s.idParts[i]
		for _, id := range p.ids[:p.n] {
			lo, hi = min(lo, id), max(hi, id)
		}
	}
	for _, id := range s.pinned {
		lo, hi = min(lo, id), max(hi, id)
	}
	if uint64(hi-lo) >= denseIDs {
		s.overflow = true
		return
	}
	span := int(hi-lo) + 1
	const unseen = -1
	owner, sig, label := s.dense[:span], s.denseSig[:span], s.denseLabel[:span]
	for i := range owner {
		owner[i] = unseen
	}
	for i := range s.idParts {
		p := &s.idParts[i]
		for _, id := range p.ids[:p.n] {
			k := id - lo
			switch o := owner[k]; {
			case o == unseen:
				owner[k] = int32(p.op)
			case o != int32(p.op):
				owner[k] = 0
			}
		}
	}
	for _, id := range s.pinned {
		owner[id-lo] = 0
	}
	// Most operations own one id (their charge): its rank is 1, and the
	// ids' signatures are needed only where an operation owns several.
	clear(s.perOp)
	several := false
	for _, o := range owner {
		if o > 0 {
			s.perOp[o]++
			several = several || s.perOp[o] > 1
		}
	}
	if several {
		clear(sig)
		for i := range s.idParts {
			p := &s.idParts[i]
			at := splitmix(p.h ^ uint64(p.kind)<<56 ^ uint64(p.rank+1)*0xc4ceb9fe1a85ec53)
			for j, id := range p.ids[:p.n] {
				sig[id-lo] += splitmix(at ^ uint64(j+1)*0x9e3779b97f4a7c15)
			}
		}
	}
	owned := s.ownedIDs[:0]
	for k, o := range owner {
		switch {
		case o == 0:
			label[k] = uint64(lo) + uint64(k)
			s.labels = append(s.labels, idLabel{id: lo + int64(k), label: label[k]})
		case o > 0:
			owned = append(owned, ownedID{op: OpID(o), sig: sig[k], id: lo + int64(k)})
		}
	}
	sortOwned(owned)
	var r uint64
	for i, rank := range owned {
		if i == 0 || owned[i-1].op != rank.op {
			r = 0
		}
		r++
		l := ownedTag | r
		label[rank.id-lo] = l
		s.labels = append(s.labels, idLabel{id: rank.id, label: l, op: rank.op})
	}
	s.ownedIDs = owned
	for i := range s.idParts {
		p := &s.idParts[i]
		if p.one != 0 && label[p.ids[0]-lo] == ownedTag|1 {
			s.sig[p.op] += p.one // the common case, worked out when the row was cached
			continue
		}
		h := p.h
		for _, id := range p.ids[:p.n] {
			h = splitmix(h ^ label[id-lo]*0x9e3779b97f4a7c15)
		}
		switch p.kind {
		case idItem:
			s.sig[p.op] += splitmix(h ^ uint64(p.rank+1)*0x9e3779b97f4a7c15)
		case idRow:
			s.sig[p.op] += splitmix(h)
		case idTally:
			s.sig[p.op] += h
		}
	}
}

// rowWithOneID is the contribution of a row of one operation that holds
// one id, its operation's only one (labelled ownedTag|1): what settleIDs
// would add for it, worked out once per cached table.
func rowWithOneID(h uint64) uint64 {
	label := uint64(ownedTag | 1)
	return splitmix(splitmix(h ^ label*0x9e3779b97f4a7c15))
}

// denseIDs bounds the spread of a state's ids that settleIDs tallies in
// tables.
const denseIDs = 1 << 12

// ownedID is an id owned by one operation, with its signature.
type ownedID struct {
	op  OpID
	sig uint64
	id  int64
}

// sortOwned sorts by operation, signature and id: the lists are short
// (the ids in a state), so an insertion sort.
func sortOwned(o []ownedID) {
	less := func(a, b *ownedID) bool {
		if a.op != b.op {
			return a.op < b.op
		}
		if a.sig != b.sig {
			return a.sig < b.sig
		}
		return a.id < b.id
	}
	for i := 1; i < len(o); i++ {
		x := o[i]
		j := i
		for j > 0 && less(&x, &o[j-1]) {
			o[j] = o[j-1]
			j--
		}
		o[j] = x
	}
}

// nameIDs mixes into a naming hash the ids each operation owns, with the
// operation's new id, so that one orbit fingerprint and one naming still
// mean one state (Naming): the renaming of the ids is part of it.
func (s *Symmetry) nameIDs(naming uint64) uint64 {
	for _, l := range s.labels {
		if l.op != 0 {
			naming = (naming ^ uint64(l.id)) * 0xff51afd7ed558ccd
			naming = (naming ^ uint64(s.to[l.op]) ^ l.label<<16) * 0xc4ceb9fe1a85ec53
		}
	}
	return naming
}

// IDs returns the issued ids w holds (in rows, queued messages and, when
// they are ids, the checker's outcomes), in ascending order, once each:
// a test aid, the set a permutation of issued ids permutes. It is nil when
// the symmetry does not rename ids.
func (s *Symmetry) IDs(w *World) []int64 {
	if s.idRenamers == nil {
		return nil
	}
	var ids []int64
	keep := func(v int64) int64 {
		if v != 0 {
			ids = append(ids, v)
		}
		return v
	}
	s.eachID(w, keep)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// eachID applies to to every issued id of w, in place: rows (table by
// table, in key order), queued messages and timers (in queue order), and
// the checker's outcomes when they are ids.
func (s *Symmetry) eachID(w *World, to func(int64) int64) {
	for n := range w.nodes {
		for t := range w.nodes[n].tables {
			tb := &w.nodes[n].tables[t]
			for r := range tb.keys {
				rec := s.idRenamers[n].RenameRowIDs(TableID(t), tb.keys[r], tb.rows[r], to)
				if rec != tb.rows[r] {
					tb.rows[r] = rec
					tb.fp = 0
				}
			}
		}
	}
	for _, i := range w.liveQueueOrder() {
		it := &w.q.items[i]
		if it.kind == itemDeliver || it.kind == itemTimer {
			s.idRenamers[it.node].RenameMessageIDs(&it.msg, it.kind == itemTimer, to)
		}
	}
	if s.outcomeIDs {
		c := &w.checker
		for op := range c.ops {
			t := &c.ops[op]
			for d := int32(0); d < t.nDistinct; d++ {
				if v := t.distinct[d].value; v != 0 {
					t.distinct[d].value = to(v)
				}
			}
		}
	}
}

// RenamedIDs returns a copy of w with its operations renamed by to (as
// Renamed) and its issued ids by ids (a permutation of IDs(w), identity
// elsewhere): a test aid, the world of the equivariance argument for ids.
func (s *Symmetry) RenamedIDs(w *World, to []OpID, ids func(int64) int64) *World {
	c := s.Renamed(w, to)
	if s.idRenamers != nil {
		s.eachID(c, func(v int64) int64 {
			if v == 0 {
				return 0
			}
			return ids(v)
		})
	}
	return c
}
