package sim

import (
	"slices"
	"testing"
)

// attemptRows is a role that keeps, in an age-free table keyed by the
// operation, the attempt of it that it last saw (Value) and, when Aux is
// set, another operation (a row of two operations), and reads attempt
// numbers only against each other: the shape of row whose normalised
// form depends on a count its table does not hold (the operation's
// count of requests sent, which moves with no write to the table). It
// does not say where it keeps issued ids; attemptLog does (none).
type attemptRows struct{}

func (attemptRows) Start(*Context)            {}
func (attemptRows) Receive(*Context, Message) {}
func (attemptRows) Timer(*Context, Timer)     {}

func (attemptRows) OpSymmetric(Semantics, bool) (bool, string) { return true, "" }

func (attemptRows) RenameRow(_ TableID, key int64, r Record, to func(OpID) OpID) (int64, Record) {
	if r.Aux != 0 {
		r.Aux = int64(to(OpID(r.Aux)))
	}
	return int64(to(OpID(key))), r
}

func (attemptRows) RenameMessage(*Message, bool, func(OpID) OpID) {}

func (attemptRows) AttemptsRelative() bool { return true }

func (attemptRows) RenameRowAttempts(_ TableID, key int64, r Record, to func(OpID, int32) int32) (int64, Record) {
	r.Value = int64(to(OpID(key), int32(r.Value)))
	return key, r
}

// attemptLog is attemptRows with issued ids declared: it holds none.
type attemptLog struct{ attemptRows }

func (attemptLog) RenameRowIDs(_ TableID, _ int64, r Record, _ func(int64) int64) Record { return r }

func (attemptLog) RenameMessageIDs(*Message, bool, func(int64) int64) {}

func (attemptLog) OutcomeIDs() bool { return false }

// attemptLogWorld is a world of two attemptLog nodes and two
// operations, the first node's age-free table holding attempt 1 of each
// operation, and the operations' counts of requests sent set to sent.
func attemptLogWorld(t *testing.T, sent [2]int32) *World {
	t.Helper()
	w := attemptWorld(t, attemptLog{}, sent)
	ctx := &Context{w: w, node: 0}
	for op := OpID(1); op <= 2; op++ {
		ctx.Put(0, int64(op), op, Record{State: 1, Value: 1})
	}
	return w
}

// attemptWorld is a world of two nodes n, the first with an age-free
// table, and two operations whose counts of requests sent are sent.
func attemptWorld(t *testing.T, n Node, sent [2]int32) *World {
	t.Helper()
	cfg := &Config{
		Topology: &Topology{Nodes: []NodeSpec{
			{Name: "a", Tables: []TableSpec{{Name: "seen", AgeFree: true}}},
			{Name: "b"},
		}},
		Nodes:   []Node{n, n},
		Network: dropKind9{},
		Observe: Observation{Origin: 0, Request: 1, Processor: 1, Sinks: []SinkID{0}},
		Ops:     2, Semantics: AtLeastOnce,
	}
	w, err := NewWorld(cfg, Defaults{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for op := OpID(1); op <= 2; op++ {
		w.checker.ops[op].Attempts = sent[op-1]
	}
	return w
}

// TestSymmetryMixedStateKeepsAttempts: a state with a part of two
// operations is fingerprinted with its attempt numbers as they are, also
// where the roles do not declare issued ids (sim.IDRenamer) and only
// attempts are shifted. Op-1 waits for its attempt a (its row) with a
// message of attempt a in flight in one state, of attempt a+1 in the
// other: not a shift of each other, and the rows hold two operations
// each. Seen relative to the count of requests sent, the two messages
// are one, and the rows, hashed as they are, are one: the states would
// share a fingerprint.
func TestSymmetryMixedStateKeepsAttempts(t *testing.T) {
	state := func(sent int32, inFlight int32) *World {
		w := attemptWorld(t, attemptRows{}, [2]int32{sent, 1})
		ctx := &Context{w: w, node: 0}
		ctx.Put(0, 1, 1, Record{State: 1, Value: 2, Aux: 2})
		ctx.Put(0, 2, 2, Record{State: 1, Value: 1, Aux: 1})
		ctx.Send(1, Message{Kind: 1, Op: 1, Attempt: inFlight})
		return w
	}
	sym, off := NewSymmetry(state(2, 2).cfg, AllFaultKinds)
	if sym == nil {
		t.Fatalf("symmetry off: %v", off)
	}
	if !slices.Contains(sym.Renames(), "attempts") || slices.Contains(sym.Renames(), "ids") {
		t.Fatalf("the symmetry renames %v, want operations and attempts", sym.Renames())
	}
	var buf []byte
	same, _ := sym.Fingerprint(state(2, 2), &buf)
	ahead, _ := sym.Fingerprint(state(3, 3), &buf)
	if same == ahead {
		t.Errorf("a state whose message is of the attempt its row waits for has the fingerprint of one whose message is an attempt ahead (%x)", same)
	}
}

// TestSymmetryCacheFollowsAttemptCounts: a Symmetry's cache of normalised
// age-free tables holds a table's rows as read against the counts of
// requests sent of that moment; when a count moves and the table does not,
// the table is normalised again, and the fingerprint is the one a fresh
// Symmetry (an empty cache) computes. That holds also when the earlier
// reading found an attempt past its operation's count (the state then
// fingerprinted with its attempts as they are): the count it was past is
// a dependency too, or the table would stay raw under every later count.
func TestSymmetryCacheFollowsAttemptCounts(t *testing.T) {
	for _, c := range []struct {
		name          string
		before, after [2]int32
	}{
		{"a retry moves a count", [2]int32{1, 1}, [2]int32{2, 1}},
		{"a count catches up with an attempt past it", [2]int32{0, 1}, [2]int32{1, 1}},
	} {
		var buf []byte
		first := attemptLogWorld(t, c.before)
		sym, off := NewSymmetry(first.cfg, AllFaultKinds)
		if sym == nil {
			t.Fatalf("symmetry off: %v", off)
		}
		if !slices.Contains(sym.Renames(), "attempts") {
			t.Fatal("the attempts are not shifted")
		}
		sym.Fingerprint(first, &buf)
		second := attemptLogWorld(t, c.after)
		warm, _ := sym.Fingerprint(second, &buf)
		fresh := sym.Clone()
		cold, _ := fresh.Fingerprint(second, &buf)
		if warm != cold || sym.Naming() != fresh.Naming() {
			t.Errorf("%s: counts %v then %v: fingerprint %x (naming %x) after the first state, %x (naming %x) from an empty cache",
				c.name, c.before, c.after, warm, sym.Naming(), cold, fresh.Naming())
		}
	}
}
