package sim

import "slices"

// Attempt numbers: the third part of the symmetry of a configuration.
//
// A client numbers an operation's requests 1, 2, 3, … and a payment
// retried twice carries attempt 3 where one retried once carries 2. When
// every role reads attempt numbers only against each other — an answer's
// attempt against the one a timer waits for, the next attempt as the
// latest plus one, a copy into a reply — and makes up a number (attempt
// 1) only for an operation that has none yet, shifting all of one
// operation's attempt numbers by the same amount maps a run to a run: the
// state where op-3 waits for its attempt 3 with attempt 2's answer still
// in flight has the futures of the one where it waits for attempt 2 with
// attempt 1's answer in flight. The explorer stores one state for both.
//
// The canonical shift is the operation's own count of requests sent (the
// checker's OpTally.Attempts, which the client's numbering follows and
// which the fingerprint leaves out): an attempt a is seen as a − count +
// attemptBase, so the latest request is attemptBase, the one before it
// attemptBase − 1, whatever their numbers. Attempt 0 means none and stays
// 0. The engine shifts what it owns (Message.Attempt of every queued
// message and timer, each of its own operation); a role shifts what only
// it can read, the attempt numbers in its rows (AttemptRenamer).

// AttemptRenamer is implemented by a role (beside OpRenamer) that reads
// attempt numbers only against each other, so that the explorer can shift
// each operation's attempt numbers. Attempts are shifted only when every
// node of a configuration implements it and says so (AttemptsRelative).
//
// The obligation of an implementation, checked by TestRolesAreEquivariant
// (package scenarios) with random shifts: the node handling a message in
// a state where the attempt numbers of some started operations are all
// shifted by one amount per operation (Message.Attempt, the rows it
// declares and the operation's count of requests sent) does what it did,
// shifted. It holds when the node compares attempts of one operation for
// equality or order among themselves, adds to the latest, copies them,
// makes up a fixed one only for an operation that has none, and the
// Message.Attempt of every message it sends is an attempt of the
// message's operation (or 0).
type AttemptRenamer interface {
	// AttemptsRelative says whether the node, as configured, reads attempt
	// numbers only against each other (not, say, against a maximum number
	// of attempts).
	AttemptsRelative() bool
	// RenameRowAttempts returns row (key, r) of the node's table t with
	// every attempt number in it (key included) mapped by to, given the
	// operation it is an attempt of.
	RenameRowAttempts(t TableID, key int64, r Record, to func(op OpID, attempt int32) int32) (int64, Record)
}

// attemptBase is what an operation's latest attempt is seen as. An
// operation with more requests than this is fingerprinted with its
// attempt numbers as they are (the state's pass is raw).
const attemptBase = 1 << 16

// attemptsOf returns the AttemptRenamer of every node of cfg, or nil when
// one does not implement it or says its attempts are not relative.
func attemptsOf(cfg *Config) []AttemptRenamer {
	rs := make([]AttemptRenamer, len(cfg.Nodes))
	for i, n := range cfg.Nodes {
		r, ok := n.(AttemptRenamer)
		if !ok || !r.AttemptsRelative() {
			return nil
		}
		rs[i] = r
	}
	return rs
}

// Renames lists what the symmetry maps between the states it merges:
// "operations" always, "ids" when issued ids are renamed (every node
// implements IDRenamer), "attempts" when attempt numbers are shifted
// (every node implements AttemptRenamer and reads them relative).
func (s *Symmetry) Renames() []string {
	r := []string{"operations"}
	if s.idRenamers != nil {
		r = append(r, "ids")
	}
	if s.attRenamers != nil {
		r = append(r, "attempts")
	}
	return r
}

// attempt is attempt a of op as the signature pass sees it: relative to
// the operation's count of requests sent (s.sent), noted in s.deps for
// the cache of tables. An attempt past the count, or a count past
// attemptBase, makes the pass raw (overflow); the count is noted then
// too, so that a cached table found past a count is read again when the
// count moves (TestSymmetryCacheFollowsAttemptCounts).
func (s *Symmetry) attempt(op OpID, a int32) int32 {
	if a == 0 || op < 1 || int(op) > s.ops {
		return a
	}
	n := s.sent[op]
	s.deps = append(s.deps, attemptDep{op: op, sent: n})
	if a > n || n >= attemptBase {
		s.overflow = true
		return a
	}
	return a - n + attemptBase
}

// attemptDep is an operation whose count of requests sent a cached
// table's normalised rows depend on, and that count.
type attemptDep struct {
	op   OpID
	sent int32
}

// depsHold says whether the counts a cached table was normalised with
// are still the state's.
func (s *Symmetry) depsHold(deps []attemptDep) bool {
	for _, d := range deps {
		if s.sent[d.op] != d.sent {
			return false
		}
	}
	return true
}

// ShiftedAttempts returns a copy of w with the attempt numbers of each
// operation op shifted by by[op] (by[0] unused; an operation with no
// request sent yet is left as it is: its first attempt is made up, not
// derived): every queued message's and timer's, every declared row's and
// the count of requests sent. A test aid, the world
// of the equivariance argument for attempts; w itself when attempts are
// not shifted.
func (s *Symmetry) ShiftedAttempts(w *World, by []int32) *World {
	if s.attRenamers == nil {
		return w
	}
	c := w.Clone()
	by = slices.Clone(by)
	for op := 1; op <= s.ops; op++ {
		if op >= len(c.checker.ops) || c.checker.ops[op].Attempts == 0 {
			by[op] = 0
		}
	}
	shift := func(op OpID, a int32) int32 {
		if a == 0 || op < 1 || int(op) > s.ops {
			return a
		}
		return a + by[op]
	}
	for i := range c.q.items {
		it := &c.q.items[i]
		if it.kind == itemDeliver || it.kind == itemTimer {
			it.msg.Attempt = shift(it.msg.Op, it.msg.Attempt)
		}
	}
	for n := range c.nodes {
		for t := range c.nodes[n].tables {
			tb := &c.nodes[n].tables[t]
			keys, rows := slices.Clone(tb.keys), slices.Clone(tb.rows)
			tb.Clear()
			for r := range keys {
				key, rec := s.attRenamers[n].RenameRowAttempts(TableID(t), keys[r], rows[r], shift)
				tb.Put(key, rec)
			}
		}
	}
	for op := 1; op <= s.ops && op < len(c.checker.ops); op++ {
		c.checker.ops[op].Attempts += by[op]
	}
	return c
}
