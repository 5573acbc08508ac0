package sim

import "testing"

// attemptLog is a role that keeps, in an age-free table keyed by the
// operation, the attempt of it that it last saw, and reads attempt
// numbers only against each other: the shape of row whose normalised
// form depends on a count its table does not hold (the operation's
// count of requests sent, which moves with no write to the table).
type attemptLog struct{}

func (attemptLog) Start(*Context)            {}
func (attemptLog) Receive(*Context, Message) {}
func (attemptLog) Timer(*Context, Timer)     {}

func (attemptLog) OpSymmetric(Semantics, bool) (bool, string) { return true, "" }

func (attemptLog) RenameRow(_ TableID, key int64, r Record, to func(OpID) OpID) (int64, Record) {
	return int64(to(OpID(key))), r
}

func (attemptLog) RenameMessage(*Message, bool, func(OpID) OpID) {}

func (attemptLog) RenameRowIDs(_ TableID, _ int64, r Record, _ func(int64) int64) Record { return r }

func (attemptLog) RenameMessageIDs(*Message, bool, func(int64) int64) {}

func (attemptLog) OutcomeIDs() bool { return false }

func (attemptLog) AttemptsRelative() bool { return true }

func (attemptLog) RenameRowAttempts(_ TableID, key int64, r Record, to func(OpID, int32) int32) (int64, Record) {
	r.Value = int64(to(OpID(key), int32(r.Value)))
	return key, r
}

// attemptLogWorld is a world of two attemptLog nodes and two
// operations, the first node's age-free table holding attempt 1 of each
// operation, and the operations' counts of requests sent set to sent.
func attemptLogWorld(t *testing.T, sent [2]int32) *World {
	t.Helper()
	cfg := &Config{
		Topology: &Topology{Nodes: []NodeSpec{
			{Name: "a", Tables: []TableSpec{{Name: "seen", AgeFree: true}}},
			{Name: "b"},
		}},
		Nodes:   []Node{attemptLog{}, attemptLog{}},
		Network: dropKind9{},
		Observe: Observation{Origin: 0, Request: 1, Processor: 1, Sinks: []SinkID{0}},
		Ops:     2, Semantics: AtLeastOnce,
	}
	w, err := NewWorld(cfg, Defaults{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := &Context{w: w, node: 0}
	for op := OpID(1); op <= 2; op++ {
		ctx.Put(0, int64(op), op, Record{State: 1, Value: 1})
		w.checker.ops[op].Attempts = sent[op-1]
	}
	return w
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
		if !sym.ShiftsAttempts() {
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
