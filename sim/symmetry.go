package sim

import (
	"cmp"
	"fmt"
	"slices"
)

// Symmetry of operations: the engine's side of the explorer's symmetry
// reduction (package sim/search, docs/explore.md).
//
// A configuration's operations 1..Ops are interchangeable when every
// role treats them alike: it reads an operation's id only to tell it from
// the others (a table key, an Idempotency-Key, a request body), never
// compares two ids by size or does something for op-1 that it does not
// do for op-2. Then renaming the operations by any permutation π — every
// id, and every value a role derived from one, in every table, message,
// timer and tally — maps a run to a run: if s steps to s′ under some
// answers of the chooser, π(s) steps to π(s′) under the same answers
// (the same faults, at the same places), and the checker judges π(s) as
// it judges s (its promises quantify over every operation alike). States
// of one orbit {π(s)} therefore have the same futures up to renaming, the
// same verdicts and the same fault costs, and an explorer needs to store
// one of them: the canonical one, whose fingerprint is Fingerprint's.
//
// The engine renames what it owns (Message.Op of every queued message and
// timer, the checker's per-operation tallies); a role renames what only
// it can read, by implementing OpRenamer. A configuration is symmetric
// when every one of its roles implements OpRenamer and declares itself
// symmetric as configured, and it has no invariants (their state is
// opaque bytes no renaming can reach). Where every role says how, the
// renaming also permutes the ids a node issued (symmetry_ids.go) and
// shifts each operation's attempt numbers (symmetry_attempts.go).

// OpRenamer is implemented by a role (a Node) whose behaviour is the same
// for every operation up to its id, so that its part of a state can be
// renamed under a permutation of the operations.
//
// The obligation of an implementation is equivariance: for every
// permutation π, the node handling a π-renamed message (or timer) in a
// π-renamed state does exactly what it did in the original, renamed by π
// — the same sends in the same order, the same table writes, effects and
// outcomes. In particular it must not iterate over rows whose order
// depends on operation ids when what it does for each row is visible in
// order (sends, writes that others read), and it must record outcome
// values that are not derived from operation ids (or are renamed here).
// The obligation holds from the state after every node's first boot: a
// first Start is where a client gives the operations their numbers (op-1
// starts first), before any state of an operation exists; every search
// starts at the root and reaches all later states through those boots,
// so the states it merges are all past them. TestRolesAreEquivariant
// (package scenarios) checks the obligation step by step on random
// schedules.
type OpRenamer interface {
	// OpSymmetric says whether the node, as configured, treats every
	// operation alike under the semantics sem; crashes says whether it can
	// crash and restart in the run. When it does not, why is one of the reasons
	// SymmetryKeys, SymmetryRestart.
	OpSymmetric(sem Semantics, crashes bool) (ok bool, why string)
	// RenameRow returns row (key, r) of the node's table t with every
	// operation id in it, and every value derived from one, mapped by to.
	// A row that belongs to no operation is returned as it is. to maps an
	// id outside 1..Ops to itself.
	RenameRow(t TableID, key int64, r Record, to func(OpID) OpID) (int64, Record)
	// RenameMessage renames, in place, the slots of m that hold a value
	// derived from an operation id (an idempotency key, a body made from
	// the id): m is a message delivered to the node or, when timer is
	// set, a timer it set (Kind its TimerKind, Status its Phase). m.Op
	// itself is renamed by the engine.
	RenameMessage(m *Message, timer bool, to func(OpID) OpID)
}

// Symmetry canonicalises the states of one configuration under the
// permutations of its operations. It holds scratch space: one per
// goroutine (Clone).
type Symmetry struct {
	cfg      *Config
	renamers []OpRenamer
	ops      int

	sig     []uint64  // per operation, a renaming-invariant signature
	rank    []OpID    // operations sorted by signature
	to      []OpID    // the canonical renaming: old id → new id
	refs    []OpID    // ops a renamer asked about (signature pass)
	keys    []int64   // renameOps: a table's renamed rows, to sort
	rows    []Record  //
	perm    []int     //
	tallies []OpTally // renameOps: the tallies before the renaming

	tallyHash []uint64     // per operation, its tally's hash
	items     []part       // the queue's items, in order (signatures)
	tables    []tableParts // the cache of age-free tables' parts (cached)
	scratch   tableParts   // a table that is not cached, as its parts
	msg       Message      // the queued message being normalised
	// global hashes what belongs to no operation (nodes up or down, the
	// queue's and tables' other parts, in order); mixed says that some
	// part came from two operations (signatures).
	global stateHasher
	mixed  bool
	naming uint64 // a hash of the renaming the last Fingerprint used (Naming)
	toFn   func(OpID) OpID
	zeroFn func(OpID) OpID
	recFn  func(OpID) OpID

	// Issued ids (symmetry_ids.go): the nodes' IDRenamers (nil: ids are
	// not renamed) and whether the checker's outcomes are ids; raw
	// says that this pass keeps ids and attempts as they are (a state
	// with a mixed part, or one that overflows what the pass maps: a part
	// with too many ids, ids spread too wide, an attempt past its
	// operation's count); cur holds the ids of
	// the part being normalised, pinned those of parts of no operation,
	// idParts the parts of one operation set aside until every id's owner
	// is known.
	idRenamers []IDRenamer
	outcomeIDs bool
	raw        bool
	overflow   bool
	cur        []int64
	pinned     []int64
	idParts    []idPart
	ownedIDs   []ownedID
	perOp      []int32 // settleIDs: per operation, the ids it owns
	labels     []idLabel
	dense      []int32  // settleIDs: per id − the least, its owner
	denseSig   []uint64 // settleIDs: per id − the least, its signature
	denseLabel []uint64 // settleIDs: per id − the least, its label
	zeroIDFn   func(int64) int64
	keepIDFn   func(int64) int64

	// Attempt numbers (symmetry_attempts.go): the nodes' AttemptRenamers
	// (nil: attempts are not shifted), each operation's count of requests
	// sent in the state being fingerprinted, and the operations whose
	// counts the table being normalised read.
	attRenamers []AttemptRenamer
	sent        []int32
	deps        []attemptDep
	attFn       func(OpID, int32) int32
}

// Why a configuration's operations are not interchangeable: the Reason
// of a SymmetryOff. The report words each in the reader's language.
const (
	SymmetryOneOp      = "one-op"     // a single operation: nothing to permute
	SymmetryInvariants = "invariants" // invariants keep state no renaming reaches
	SymmetryUndeclared = "undeclared" // a role does not implement OpRenamer
	SymmetryKeys       = "keys"       // keys that are not one per operation from the client
	SymmetryRestart    = "restart"    // a restarted node redoes something in the order of the ids
)

// SymmetryOff says why a search is not reduced by symmetry: a reason
// (SymmetryOneOp…) and the node it is about, if any.
type SymmetryOff struct {
	Reason string `json:"reason"`
	Node   string `json:"node,omitempty"`
}

// String says it in English.
func (o SymmetryOff) String() string {
	var why string
	switch o.Reason {
	case SymmetryOneOp:
		why = "one operation: nothing to permute"
	case SymmetryInvariants:
		why = "the scenario's invariants keep state that no renaming reaches"
	case SymmetryUndeclared:
		why = "its role does not declare how to rename operations"
	case SymmetryKeys:
		why = "its keys are not one per operation, chosen by the client"
	case SymmetryRestart:
		why = "when it restarts it redoes work in the order of the operations' ids"
	default:
		why = o.Reason
	}
	if o.Node != "" {
		return "node " + o.Node + ": " + why
	}
	return why
}

// NewSymmetry returns the symmetry of cfg's operations for a search that
// enumerates the fault kinds kinds, or nil and why there is none.
func NewSymmetry(cfg *Config, kinds KindSet) (*Symmetry, *SymmetryOff) {
	if cfg.Ops < 2 {
		return nil, &SymmetryOff{Reason: SymmetryOneOp}
	}
	if cfg.Invariants != nil && len(cfg.Invariants()) > 0 {
		return nil, &SymmetryOff{Reason: SymmetryInvariants}
	}
	renamers := make([]OpRenamer, len(cfg.Nodes))
	for i, n := range cfg.Nodes {
		spec := &cfg.Topology.Nodes[i]
		r, ok := n.(OpRenamer)
		if !ok {
			return nil, &SymmetryOff{Reason: SymmetryUndeclared, Node: spec.Name}
		}
		crashes := spec.Crashable && spec.CrashProbability > 0 && kinds.Has(ChoiceCrash)
		if ok, why := r.OpSymmetric(cfg.Semantics, crashes); !ok {
			return nil, &SymmetryOff{Reason: why, Node: spec.Name}
		}
		renamers[i] = r
	}
	ids, outcomes := idsOf(cfg)
	return newSymmetry(cfg, renamers, ids, outcomes, attemptsOf(cfg)), nil
}

func newSymmetry(cfg *Config, renamers []OpRenamer, ids []IDRenamer, outcomeIDs bool, atts []AttemptRenamer) *Symmetry {
	s := &Symmetry{cfg: cfg, renamers: renamers, ops: cfg.Ops, idRenamers: ids, outcomeIDs: outcomeIDs, attRenamers: atts}
	s.sent = make([]int32, s.ops+1)
	s.perOp = make([]int32, s.ops+1)
	s.attFn = s.attempt
	if ids != nil {
		s.dense, s.denseSig, s.denseLabel = make([]int32, denseIDs), make([]uint64, denseIDs), make([]uint64, denseIDs)
	}
	s.zeroIDFn = func(v int64) int64 { return s.recordID(v, false) }
	s.keepIDFn = func(v int64) int64 { return s.recordID(v, true) }
	s.sig = make([]uint64, s.ops+1)
	s.rank = make([]OpID, s.ops)
	s.to = make([]OpID, s.ops+1)
	s.toFn = func(o OpID) OpID {
		if o < 1 || int(o) > s.ops {
			return o
		}
		return s.to[o]
	}
	s.zeroFn = func(OpID) OpID { return 0 }
	s.recFn = func(o OpID) OpID {
		s.refs = append(s.refs, o)
		return 0
	}
	return s
}

// Clone returns a Symmetry of the same configuration with scratch space of
// its own, for another goroutine.
func (s *Symmetry) Clone() *Symmetry {
	return newSymmetry(s.cfg, s.renamers, s.idRenamers, s.outcomeIDs, s.attRenamers)
}

// Fingerprint is the fingerprint of w's orbit: a hash of the state π(w),
// for the renaming π that orders the operations by a renaming-invariant
// signature of everything each holds (its tally, its queued messages and
// timers with their places in the queue, its rows), ties broken by id.
// permuted says that π is not the identity.
//
// The hash is not World.Fingerprint's: it is a function g of a state,
// computed here on π(w) without building it, and g(π(w)) = g(σ(π(w)))
// only when σ is the identity (up to 64-bit collisions). So two worlds
// get the same fingerprint only if they are renamings of each other —
// the soundness of the reduction — and two renamings of each other get
// the same one whenever their signatures tell every operation apart (an
// operation's signature includes where each of its messages stands in
// the queue, so equal signatures mean equal parts, whose swap changes
// nothing): one representative per orbit.
//
// Each row and each queued item is seen as its normalised form — every
// value derived from an operation id replaced by 0 (the renamer asked
// with a function that answers 0) — together with the one operation the
// values came from; that pair determines the row, and renaming changes
// only the operation. When every part of the state belongs to one
// operation or to none, g hashes the parts of no operation (nodes up or
// down, in order; the queue's, in order, with their places; each table's
// as the set of its rows, a sum of mixed row hashes) and then the
// operations' signatures in canonical order: a signature hashes all of
// one operation's parts (its tally, its rows, table by table, and its
// queued items with their places), so the list of signatures in the
// order of the new ids is π(w)'s parts, operation by operation. When a
// row or item holds values of two different operations, g is another
// hash, seeded apart (hash): every part renamed (that part whole), the
// queue in order, each table as the set of its rows, the tallies in the
// order of the new ids. Being two-part or not is itself invariant under
// renaming, so both orbits of one kind are hashed by one function. A
// world with a paused node is fingerprinted by World.Fingerprint (what a
// paused node holds is not renamed), tagged apart: still sound, it only
// merges less.
func (s *Symmetry) Fingerprint(w *World, buf *[]byte) (fp Fingerprint, permuted bool) {
	for i := range w.nodes {
		if w.nodes[i].paused {
			s.naming = 0
			return Fingerprint(splitmix(uint64(w.hashState(buf)) ^ 0x5e77ed)), false
		}
	}
	s.raw = false
	s.signatures(w)
	if (s.idRenamers != nil || s.attRenamers != nil) && (s.mixed || s.overflow) {
		// Ids and attempts as they are: sound, merges less. (A mixed
		// state's hash reads the tables' rows as they are, so the
		// queue's attempts must be too: TestSymmetryMixedStateKeepsAttempts.)
		s.raw = true
		s.signatures(w)
	}
	rankBySignature(s.rank, s.sig)
	identity := true
	naming := uint64(0x6e61)
	for i, op := range s.rank {
		s.to[op] = OpID(i + 1)
		identity = identity && op == OpID(i+1)
		naming = (naming ^ uint64(op)) * 0xff51afd7ed558ccd
	}
	if s.attRenamers != nil && !s.raw {
		for _, op := range s.rank {
			naming = (naming ^ uint64(s.sent[op])) * 0xc4ceb9fe1a85ec53
		}
	}
	s.naming = splitmix(s.nameIDs(naming))
	if s.mixed {
		return s.hash(w), !identity
	}
	// Every part belongs to one operation or to none: the state is the
	// parts of no operation (global) and, per operation, its parts, which
	// its signature hashes. The signatures in canonical order are the
	// renamed state's, op-1 first: hash them, and no part again.
	h := stateHasher{h: 0xfa57f1, g: uint64(s.global.sum())}
	for _, op := range s.rank {
		h.word(s.sig[op])
	}
	return h.sum(), !identity
}

// rankBySignature fills rank with the operations 1..len(rank) ordered by
// signature, ties by id: an insertion sort (a dozen operations) that
// reads the signatures directly, with no comparison function to call.
func rankBySignature(rank []OpID, sig []uint64) {
	for i := range rank {
		op := OpID(i + 1)
		x := sig[op]
		j := i
		for j > 0 && sig[rank[j-1]] > x { // ids ascend, so a tie keeps the smaller id first
			rank[j] = rank[j-1]
			j--
		}
		rank[j] = op
	}
}

// Naming is a hash of the renaming the last Fingerprint mapped its world
// by (identity or not). Two worlds with one orbit fingerprint are the
// same state exactly when they were mapped by the same renaming (π(w) =
// π(w′) with one π means w = w′; ties of signatures are broken by id, so
// the renaming is a function of the state): an explorer that keeps the
// naming of each state it stored tells a renaming of a stored state from
// the state itself (search.Stats.Collapsed).
func (s *Symmetry) Naming() uint64 { return s.naming }

// part is a row or queued item in the signature pass: its normalised
// hash and the operation its values came from (0: none; mixed: several).
type part struct {
	h     uint64
	op    OpID
	mixed bool
}

// Renamed returns a copy of w with operation op renamed to[op] (to[0] is
// unused; to must be a permutation of 1..Ops): a test aid, the world π(w)
// of the equivariance argument.
func (s *Symmetry) Renamed(w *World, to []OpID) *World {
	copy(s.to, to)
	c := w.Clone()
	c.renameOps(s)
	return c
}

// refsOne says which one operation the renamer asked about (0 for none),
// or mixed when it asked about two different ones.
func (s *Symmetry) refsOne() (op OpID, mixed bool) {
	for _, r := range s.refs {
		if r < 1 || int(r) > s.ops {
			continue
		}
		if op != 0 && r != op {
			return 0, true
		}
		op = r
	}
	return op, false
}

// itemHash hashes a queued item's fields, m standing for its message.
func (w *World) itemHash(it *item, m *Message, salt uint64) uint64 {
	var h stateHasher
	h.h, h.g = salt, 0x7a11
	h.pair(uint64(it.kind)|uint64(it.node)<<8|uint64(m.From)<<16|uint64(m.To)<<24|uint64(uint32(m.Status))<<32, w.queuedKindKey(it))
	h.pair(uint64(it.at-w.now), pack32(int32(m.Op), m.Attempt))
	h.pair(uint64(m.Key), uint64(m.Payload))
	h.word(uint64(m.Value))
	return uint64(h.sum())
}

// rowHash hashes a row (its age included unless the table is age-free).
func rowHash(key int64, r *Record, age Time, salt uint64) uint64 {
	var h stateHasher
	h.h, h.g = salt, 0x40b5
	h.pair(uint64(key), pack32(r.State, r.Status))
	h.pair(uint64(r.Value), uint64(r.Aux))
	h.word(uint64(age))
	return uint64(h.sum())
}

// signatures fills s.sig with, per operation, a hash of what the state
// holds for it, each value derived from an operation id replaced by 0 and
// each message's place in the queue included, so that a renaming
// permutes the signatures and changes none. It keeps the normalised
// queue's normalised parts (s.items) for hash.
func (s *Symmetry) signatures(w *World) {
	clear(s.sig)
	s.idParts, s.pinned, s.overflow = s.idParts[:0], s.pinned[:0], false
	idsOn := s.idRenamers != nil && !s.raw
	attOn := s.attRenamers != nil && !s.raw
	c := &w.checker
	if attOn {
		for op := 1; op <= s.ops && op < len(c.ops); op++ {
			s.sent[op] = c.ops[op].Attempts
		}
	}
	s.tallyHash = s.tallyHash[:0]
	s.tallyHash = append(s.tallyHash, 0)
	for op := 1; op < len(c.ops); op++ {
		t := &c.ops[op]
		var h stateHasher
		h.h, h.g = 0x51ed27, 0x2f0b
		for k := 0; k < c.nsinks; k++ {
			h.word(uint64(t.Sinks[k]))
		}
		h.word(uint64(t.nDistinct))
		s.cur = s.cur[:0]
		for d := int32(0); d < t.nDistinct; d++ {
			v := t.distinct[d].value
			if idsOn && s.outcomeIDs && op <= s.ops {
				v = s.recordID(v, false)
			}
			h.pair(uint64(v), uint64(t.distinct[d].status))
		}
		th := uint64(h.sum())
		s.tallyHash = append(s.tallyHash, th)
		if op <= s.ops && !s.deferIDs(th, OpID(op), idTally, 0) {
			s.sig[op] = th
		}
	}
	order := w.liveQueueOrder()
	s.items = s.items[:0]
	s.mixed = false
	s.global.h, s.global.g = 0x6a09e667f3bcc908, uint64(len(order))
	for rank, i := range order {
		it := &w.q.items[i]
		if it.kind != itemDeliver && it.kind != itemTimer {
			p := part{h: w.itemHash(it, &it.msg, 0x17e3)}
			s.items = append(s.items, p)
			s.global.pair(p.h, uint64(rank))
			continue
		}
		s.msg = it.msg
		m := &s.msg
		if attOn {
			m.Attempt = s.attempt(m.Op, m.Attempt)
		}
		s.refs = append(s.refs[:0], m.Op)
		m.Op = 0
		s.renamers[it.node].RenameMessage(m, it.kind == itemTimer, s.recFn)
		op, mixed := s.refsOne()
		s.cur = s.cur[:0]
		if idsOn && !mixed {
			s.idRenamers[it.node].RenameMessageIDs(m, it.kind == itemTimer, s.idFn(op))
		}
		p := part{h: w.itemHash(it, m, 0x17e3), op: op, mixed: mixed}
		s.items = append(s.items, p)
		switch {
		case mixed:
			s.mixed = true
		case op != 0:
			if !s.deferIDs(p.h, op, idItem, rank) {
				s.sig[op] += splitmix(p.h ^ uint64(rank+1)*0x9e3779b97f4a7c15)
			}
		default:
			s.pinned = append(s.pinned, s.cur...)
			s.global.pair(p.h, uint64(rank))
		}
	}
	for n := range w.nodes {
		specs := w.cfg.Topology.Nodes[n].Tables
		s.global.word(uint64(boolByte(w.nodes[n].down)))
		for t := range w.nodes[n].tables {
			tb := &w.nodes[n].tables[t]
			salt := uint64(n)<<8 | uint64(t)
			e := &s.scratch
			if specs[t].AgeFree && len(tb.keys) > 0 {
				e = s.cached(tb, salt)
			} else {
				e.key = 0
			}
			if e.key == 0 || !e.filled || !s.depsHold(e.deps) {
				s.fillTable(e, w, n, TableID(t), salt, idsOn, attOn)
			}
			s.applyTable(e)
			s.global.pair(uint64(len(tb.keys)), e.sum)
		}
	}
	s.settleIDs()
}

// fillTable normalises the rows of node n's table t into e: each row's
// hash with the values derived from an operation id replaced by 0, and
// the issued ids of a row of one operation left out, noted in e.ids.
func (s *Symmetry) fillTable(e *tableParts, w *World, n int, t TableID, salt uint64, idsOn, attOn bool) {
	tb := &w.nodes[n].tables[t]
	ageFree := w.cfg.Topology.Nodes[n].Tables[t].AgeFree
	e.rows, e.ids, e.pinned = e.rows[:0], e.ids[:0], e.pinned[:0]
	e.sum, e.mixed, e.overflow, e.filled = 0, false, false, true
	before := s.overflow
	s.deps = s.deps[:0]
	for r := range tb.keys {
		key, rec := tb.keys[r], tb.rows[r]
		s.overflow = false
		if attOn {
			key, rec = s.attRenamers[n].RenameRowAttempts(t, key, rec, s.attFn)
		}
		s.refs = s.refs[:0]
		key, rec = s.renamers[n].RenameRow(t, key, rec, s.recFn)
		op, mixed := s.refsOne()
		if mixed {
			e.mixed = true // hash renames this row whole
			continue
		}
		s.cur = s.cur[:0]
		if idsOn {
			rec = s.idRenamers[n].RenameRowIDs(t, key, rec, s.idFn(op))
		}
		e.overflow = e.overflow || s.overflow
		age := w.now - rec.At
		if ageFree {
			age = 0
		}
		h := rowHash(key, &rec, age, salt)
		switch {
		case op == 0:
			e.sum += splitmix(h)
			e.pinned = append(e.pinned, s.cur...)
		case len(s.cur) > 0:
			p := idPart{h: h, op: op, kind: idRow, n: uint8(len(s.cur))}
			copy(p.ids[:], s.cur)
			if p.n == 1 {
				p.one = rowWithOneID(h)
			}
			e.ids = append(e.ids, p)
		default:
			e.rows = append(e.rows, rowPart{op: op, mix: splitmix(h)})
		}
	}
	e.deps = append(e.deps[:0], s.deps...)
	s.overflow = before
}

// applyTable adds a table's normalised rows to the signatures: each row
// of one operation to its operation's, a row with issued ids set aside
// until the ids' owners are known, a row of none to the table's sum.
func (s *Symmetry) applyTable(e *tableParts) {
	s.mixed = s.mixed || e.mixed
	s.overflow = s.overflow || e.overflow
	for _, r := range e.rows {
		s.sig[r.op] += r.mix
	}
	s.idParts = append(s.idParts, e.ids...)
	s.pinned = append(s.pinned, e.pinned...)
}

// idFn is the function a part's renamer is called with in the signature
// pass: it notes the part's issued ids in s.cur and leaves them out of
// the part of one operation, keeps them in a part of none.
func (s *Symmetry) idFn(op OpID) func(int64) int64 {
	if op != 0 {
		return s.zeroIDFn
	}
	return s.keepIDFn
}

// rowPart is a normalised row of one operation: its mixed hash.
type rowPart struct {
	op  OpID
	mix uint64
}

// tableParts is an entry of the cache of tables' parts: a table's rows
// as the signature pass normalises them, under the hash of the table's
// content (0: empty entry).
type tableParts struct {
	key      uint64
	filled   bool
	rows     []rowPart // rows of one operation without issued ids
	ids      []idPart  // rows of one operation with issued ids
	pinned   []int64   // the issued ids of rows of no operation
	sum      uint64    // the sum of the mixed hashes of rows of no operation
	mixed    bool      // some row holds values of two operations
	overflow bool      // some row holds more issued ids than a part keeps, or an attempt out of range
	deps     []attemptDep
}

// symTableCache is the number of entries of a Symmetry's cache of
// tables' parts: a step writes one or two tables, so most tables of a
// state are those of its parent, met a moment ago.
const symTableCache = 1024

// cached returns the cache entry of an age-free table whose rows (all
// without a time) hash to tb.rowsHash(): its parts if it holds them
// (the renamer's answers for the same rows are the same), else an entry
// emptied for the caller to fill.
func (s *Symmetry) cached(tb *Table, salt uint64) *tableParts {
	if s.tables == nil {
		s.tables = make([]tableParts, symTableCache)
	}
	key := splitmix(tb.rowsHash()^salt*0x9e3779b97f4a7c15^uint64(boolByte(s.raw))) | 1
	e := &s.tables[key%symTableCache]
	if e.key != key {
		e.key, e.filled = key, false
	}
	return e
}

// hash is g(π(w)) for the renaming s.to, from the parts signatures kept.
func (s *Symmetry) hash(w *World) Fingerprint {
	var h stateHasher
	h.h, h.g = 0x5bd1e995, 0x27d4eb2f
	for i := range w.nodes {
		h.word(0xf0<<8 | uint64(boolByte(w.nodes[i].down)))
	}
	h.word(0xf1)
	h.word(uint64(len(s.items)))
	for k, p := range s.items {
		switch {
		case p.mixed:
			it := &w.q.items[w.fpOrder[k]]
			m := it.msg
			m.Op = s.toFn(m.Op)
			s.renamers[it.node].RenameMessage(&m, it.kind == itemTimer, s.toFn)
			h.pair(w.itemHash(it, &m, 0x3a1), 1)
		default:
			h.pair(p.h, uint64(s.toFn(p.op)))
		}
	}
	h.word(0xf2)
	for n := range w.nodes {
		specs := w.cfg.Topology.Nodes[n].Tables
		for t := range w.nodes[n].tables {
			tb := &w.nodes[n].tables[t]
			var sum uint64
			for r := range tb.keys {
				// The row normalised, as the signature pass saw it (ids
				// as they are: a mixed state's pass keeps them).
				s.refs = s.refs[:0]
				key, rec := s.renamers[n].RenameRow(TableID(t), tb.keys[r], tb.rows[r], s.recFn)
				op, mixed := s.refsOne()
				if mixed {
					key, rec = s.renamers[n].RenameRow(TableID(t), tb.keys[r], tb.rows[r], s.toFn)
				}
				age := w.now - rec.At
				if specs[t].AgeFree {
					age = 0
				}
				if mixed {
					sum += splitmix(rowHash(key, &rec, age, 0x3a1) ^ 1)
					continue
				}
				salt := uint64(n)<<8 | uint64(t)
				sum += splitmix(rowHash(key, &rec, age, salt) ^ uint64(s.toFn(op))*0xff51afd7ed558ccd)
			}
			h.pair(uint64(len(tb.keys)), sum)
		}
	}
	h.word(0xf3)
	for _, op := range s.rank {
		h.word(s.tallyHash[op])
	}
	for op := len(s.rank) + 1; op < len(s.tallyHash); op++ {
		h.word(s.tallyHash[op])
	}
	return h.sum()
}

// renameOps renames, in place, every operation of w by s.to: the
// messages and timers queued (Op by the engine, the other slots by the
// node that will handle them), every table (by its node, rows then put
// back in key order) and the checker's tallies. w has no paused node.
func (w *World) renameOps(s *Symmetry) {
	for i := range w.q.items {
		it := &w.q.items[i]
		if it.kind != itemDeliver && it.kind != itemTimer {
			continue
		}
		it.msg.Op = s.toFn(it.msg.Op)
		s.renamers[it.node].RenameMessage(&it.msg, it.kind == itemTimer, s.toFn)
	}
	for n := range w.nodes {
		for t := range w.nodes[n].tables {
			tb := &w.nodes[n].tables[t]
			if len(tb.keys) == 0 {
				continue
			}
			s.keys, s.rows, s.perm = s.keys[:0], s.rows[:0], s.perm[:0]
			changed := false
			for r := range tb.keys {
				key, rec := s.renamers[n].RenameRow(TableID(t), tb.keys[r], tb.rows[r], s.toFn)
				changed = changed || key != tb.keys[r] || rec != tb.rows[r]
				s.keys, s.rows, s.perm = append(s.keys, key), append(s.rows, rec), append(s.perm, r)
			}
			if !changed {
				continue
			}
			slices.SortFunc(s.perm, func(a, b int) int { return cmp.Compare(s.keys[a], s.keys[b]) })
			for r, p := range s.perm {
				tb.keys[r], tb.rows[r] = s.keys[p], s.rows[p]
				if r > 0 && tb.keys[r] == tb.keys[r-1] {
					panic(fmt.Sprintf("sim: renaming operations merged two rows of key %d in table %s of node %s", tb.keys[r], w.cfg.Topology.Nodes[n].Tables[t].Name, w.cfg.Topology.Nodes[n].Name))
				}
			}
			tb.fp = 0
		}
	}
	c := &w.checker
	s.tallies = append(s.tallies[:0], c.ops...)
	for op := 1; op < len(s.tallies); op++ {
		c.ops[s.toFn(OpID(op))] = s.tallies[op]
	}
}
