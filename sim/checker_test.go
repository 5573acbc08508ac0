package sim

import (
	"strings"
	"testing"
)

// The observation every checker test uses: node 0 is the client whose
// sends of message kind 1 are attempts, node 1 the service whose
// deliveries of kind 1 are invocations, and sink 0 the observed ledger
// (sink 1 is a log nobody counts).
const (
	tClient   NodeID  = 0
	tService  NodeID  = 1
	tRequest  MsgKind = 1
	tResponse MsgKind = 2
	tLedger   SinkID  = 0
	tLog      SinkID  = 1
)

var tObserve = Observation{Origin: tClient, Request: tRequest, Processor: tService, Sinks: []SinkID{tLedger}}

// stream builds a hand-written trace, one event per helper call. Every
// call returns a new slice, so streams can share a prefix.
type stream []Event

func (s stream) add(e Event) stream { return append(s[:len(s):len(s)], e) }

func (s stream) send(from NodeID, kind MsgKind, op OpID) stream {
	return s.add(Event{Kind: EvSend, Node: from, Peer: 1 - from, Msg: Message{Kind: kind, Op: op, From: from, To: 1 - from}})
}

func (s stream) deliver(to NodeID, kind MsgKind, op OpID) stream {
	return s.add(Event{Kind: EvDeliver, Node: to, Peer: 1 - to, Msg: Message{Kind: kind, Op: op, From: 1 - to, To: to}})
}

func (s stream) effect(sink SinkID, op OpID) stream {
	return s.add(Event{Kind: EvEffect, Node: tService, Peer: NoNode, Label: uint16(sink), Msg: Message{Op: op}})
}

func (s stream) outcome(op OpID, value int64) stream {
	return s.add(Event{Kind: EvOutcome, Node: tClient, Peer: NoNode, Msg: Message{Op: op, Value: value}})
}

func (s stream) outcomeStatus(op OpID, value int64, status int32) stream {
	return s.add(Event{Kind: EvOutcome, Node: tClient, Peer: NoNode, Msg: Message{Op: op, Value: value, Status: status}})
}

func (s stream) drop(reason DropReason) stream {
	return s.add(Event{Kind: EvDrop, Node: tClient, Peer: tService, Reason: reason})
}

func (s stream) ev(kind EventKind) stream { return s.add(Event{Kind: kind}) }

// effects returns op's effect count on the one sink tObserve observes.
func effects(c *Checker, op OpID) int32 {
	t := c.Tally(op)
	return t.MaxEffects(c.ObservedSinks())
}

func fold(ops int, s stream) *Checker {
	c := NewChecker(tObserve, ops)
	for i := range s {
		c.Record(&s[i])
	}
	return c
}

// TestCheckerCounts checks what the checker counts and where: attempts are
// the origin's sends of the request kind, deliveries the processor's
// deliveries of it, effects those on observed sinks only.
func TestCheckerCounts(t *testing.T) {
	s := stream{}.
		send(tClient, tRequest, 1).
		send(tClient, tRequest, 1).  // a retry: a second attempt
		send(tService, tRequest, 1). // not the origin
		send(tClient, tResponse, 1). // not the request kind
		deliver(tService, tRequest, 1).
		deliver(tClient, tRequest, 1). // not the processor
		deliver(tService, tResponse, 1).
		effect(tLedger, 1).
		effect(tLog, 1). // an unobserved sink
		send(tClient, tRequest, 2).
		deliver(tService, tRequest, 2).
		deliver(tService, tRequest, 2). // a network duplicate
		effect(tLedger, 2).
		effect(tLedger, 2).
		send(tClient, tRequest, 3) // lost on the way
	c := fold(3, s)
	want := []struct {
		attempts, deliveries, effects int32
		verdict                       Verdict
	}{
		{2, 1, 1, ExactlyOnce},
		{1, 2, 2, Duplicated},
		{1, 0, 0, Lost},
	}
	if c.Ops() != 3 {
		t.Fatalf("Ops() = %d, want 3", c.Ops())
	}
	for i, w := range want {
		op := OpID(i + 1)
		got := c.Tally(op)
		e := effects(c, op)
		if got.Attempts != w.attempts || got.Deliveries != w.deliveries || e != w.effects {
			t.Errorf("%s: attempts/deliveries/effects = %d/%d/%d, want %d/%d/%d",
				op, got.Attempts, got.Deliveries, e, w.attempts, w.deliveries, w.effects)
		}
		if v := VerdictOf(e, e); v != w.verdict {
			t.Errorf("%s: verdict %s, want %s", op, v, w.verdict)
		}
	}
}

// TestCheckerIgnoresUnknownOps checks that events of op 0 ("no
// operation") and of ops beyond the workload are ignored, not a panic.
func TestCheckerIgnoresUnknownOps(t *testing.T) {
	s := stream{}.
		send(tClient, tRequest, 0).effect(tLedger, 0).outcome(0, 5).
		send(tClient, tRequest, 3).effect(tLedger, 3).outcome(3, 5).
		send(tClient, tRequest, -1).effect(tLedger, -1).
		effect(tLedger, 2)
	c := fold(2, s)
	if got := c.Tally(1); got != (OpTally{}) {
		t.Errorf("op-1 tally = %+v, want zero", got)
	}
	if got := c.Tally(2); effects(c, 2) != 1 || got.Attempts != 0 || got.Outcomes != 0 {
		t.Errorf("op-2 tally = %+v, want exactly one effect", got)
	}
}

// TestCheckerAnySinkID checks that any sink id can be observed, however
// late its kind was registered (an id above 255 too: 300 is not 44, what
// an 8-bit label would have made of it), and that only the observed one
// is counted.
func TestCheckerAnySinkID(t *testing.T) {
	c := NewChecker(Observation{Sinks: []SinkID{300}}, 1)
	for _, label := range []uint16{300, 40, 8, 44} {
		c.Record(&Event{Kind: EvEffect, Label: label, Msg: Message{Op: 1}})
	}
	if got := effects(c, 1); got != 1 {
		t.Fatalf("effects = %d, want 1 (only sink 200 is observed)", got)
	}
}

// TestCheckerDistinctOutcomes checks response consistency: the same value
// twice is one distinct outcome, different values count up to a cap.
func TestCheckerDistinctOutcomes(t *testing.T) {
	s := stream{}.
		outcome(1, 201).outcome(1, 201).
		outcome(2, 1).outcome(2, 2).outcome(2, 1).
		outcome(3, 1).outcome(3, 2).outcome(3, 3).outcome(3, 4).outcome(3, 5).outcome(3, 6)
	c := fold(3, s)
	for _, w := range []struct {
		op                 OpID
		outcomes, distinct int32
	}{{1, 2, 1}, {2, 3, 2}, {3, 6, maxDistinct}} {
		got := c.Tally(w.op)
		if got.Outcomes != w.outcomes || got.DistinctOutcomes() != w.distinct {
			t.Errorf("%s: outcomes %d distinct %d, want %d and %d", w.op, got.Outcomes, got.DistinctOutcomes(), w.outcomes, w.distinct)
		}
	}
}

// TestCheckerDistinctOutcomesByStatus: an outcome is its (value, status)
// pair, so the same value under another status (a 201 then a 500 without
// a result) is a different outcome, and the same pair twice is one.
func TestCheckerDistinctOutcomesByStatus(t *testing.T) {
	s := stream{}.
		outcomeStatus(1, 0, 201).outcomeStatus(1, 0, 500).
		outcomeStatus(2, 8821, 201).outcomeStatus(2, 8821, 201)
	c := fold(2, s)
	if t1 := c.Tally(1); t1.DistinctOutcomes() != 2 {
		t.Errorf("op 1: distinct %d, want 2 (same value, different status)", t1.DistinctOutcomes())
	}
	if t2 := c.Tally(2); t2.DistinctOutcomes() != 1 {
		t.Errorf("op 2: distinct %d, want 1 (same pair twice)", t2.DistinctOutcomes())
	}
}

// TestCheckerFaultCounts checks that drops are counted by reason and that
// duplicates, slow messages and crashes are counted; only chosen faults
// enter Total.
func TestCheckerFaultCounts(t *testing.T) {
	s := stream{}.
		drop(DropLoss).drop(DropLoss).drop(DropPartition).drop(DropDown).drop(DropDown).drop(DropDown).
		ev(EvDuplicate).ev(EvSlow).ev(EvSlow).ev(EvCrash).
		ev(EvSend).ev(EvRestart).ev(EvTimerFire)
	got := fold(1, s).Faults()
	want := FaultCounts{Partition: 1, Down: 3}
	want.Add(ChoiceLoss, 2)
	want.Add(ChoiceDuplicate, 1)
	want.Add(ChoiceSlow, 2)
	want.Add(ChoiceCrash, 1)
	if got != want {
		t.Fatalf("faults = %+v, want %+v", got, want)
	}
	if got.Total() != 6 {
		t.Fatalf("Total() = %d, want 6 (loss, duplicate, slow, crash)", got.Total())
	}
}

// TestJudge checks the three-valued verdict of every promise on
// hand-built traces, finished and unfinished.
func TestJudge(t *testing.T) {
	exactly := stream{}.effect(tLedger, 1).effect(tLedger, 2)
	lost := stream{}.effect(tLedger, 1)                                      // op-2 has no effect
	dup := stream{}.effect(tLedger, 1).effect(tLedger, 2).effect(tLedger, 2) // op-2 twice
	dupAndLost := stream{}.effect(tLedger, 2).effect(tLedger, 2)             // op-1 lost, op-2 twice
	twoResults := exactly.outcome(1, 7).outcome(1, 8)                        // op-1: one effect, two answers
	sameResult := exactly.outcome(1, 7).outcome(1, 7)

	cases := []struct {
		name     string
		trace    stream
		sem      Semantics
		finished bool
		want     Status
		why      string // a substring of the explanation
	}{
		// At-most-once: ≤1.
		{"amo exactly finished", exactly, AtMostOnce, true, Held, ""},
		{"amo lost finished", lost, AtMostOnce, true, Held, ""},
		{"amo duplicated", dup, AtMostOnce, true, Violated, "op-2 has 2 effects"},
		{"amo duplicated unfinished", dup, AtMostOnce, false, Violated, "op-2 has 2 effects"},
		{"amo unfinished", exactly, AtMostOnce, false, Unknown, "did not finish"},
		{"amo two results", twoResults, AtMostOnce, true, Held, ""},

		// At-least-once: ≥1.
		{"alo exactly finished", exactly, AtLeastOnce, true, Held, ""},
		{"alo duplicated finished", dup, AtLeastOnce, true, Held, ""},
		{"alo op at 0 finished", lost, AtLeastOnce, true, Violated, "op-2 has 0 effects on a finished run"},
		{"alo op at 0 unfinished", lost, AtLeastOnce, false, Unknown, "op-2 has no effect yet"},
		// A cut run never holds a promise, not even "≥1" with every
		// effect in: run, matrix and sweep must all call it unknown.
		{"alo all ≥1 unfinished", dup, AtLeastOnce, false, Unknown, "did not finish"},
		{"alo two results", twoResults, AtLeastOnce, true, Held, ""},

		// Idempotent and transactional: =1.
		{"idem exactly finished", exactly, Idempotent, true, Held, ""},
		{"idem all effects 1 unfinished", exactly, Idempotent, false, Unknown, "did not finish"},
		{"idem duplicated", dup, Idempotent, true, Violated, "op-2 has 2 effects"},
		{"idem duplicated unfinished", dup, Idempotent, false, Violated, "op-2 has 2 effects"},
		{"idem op at 0 finished", lost, Idempotent, true, Violated, "op-2 has 0 effects"},
		{"idem op at 0 unfinished", lost, Idempotent, false, Unknown, "op-2 has no effect yet"},
		{"idem duplicate beats missing", dupAndLost, Idempotent, false, Violated, "op-2 has 2 effects"},
		{"idem distinct outcomes", twoResults, Idempotent, true, Violated, "op-1 got 2 different results"},
		{"idem same outcome twice", sameResult, Idempotent, true, Held, ""},
		{"txn distinct outcomes", twoResults, Transactional, true, Violated, "different results"},
		{"txn duplicated", dup, Transactional, true, Violated, "op-2 has 2 effects"},
		{"txn exactly finished", exactly, Transactional, true, Held, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, why := fold(2, tc.trace).Judge(tc.sem.Promise(), tc.finished)
			if got != tc.want {
				t.Fatalf("Judge(%s, finished=%v) = %s (%q), want %s", tc.sem, tc.finished, got, why, tc.want)
			}
			if tc.why == "" && why != "" {
				t.Fatalf("Judge held but explained %q", why)
			}
			if !strings.Contains(why, tc.why) {
				t.Fatalf("Judge explained %q, want it to mention %q", why, tc.why)
			}
		})
	}
}

// TestJudgeNoOps checks the edge of an empty workload: nothing can be
// violated, and only a finished run holds.
func TestJudgeNoOps(t *testing.T) {
	c := NewChecker(tObserve, 0)
	for _, sem := range AllSemantics {
		if got, _ := c.Judge(sem.Promise(), true); got != Held {
			t.Errorf("%s finished with no ops: %s, want held", sem, got)
		}
	}
	for _, sem := range AllSemantics {
		if got, _ := c.Judge(sem.Promise(), false); got != Unknown {
			t.Errorf("%s unfinished with no ops: %s, want unknown", sem, got)
		}
	}
}

// TestVerdictOf checks the cardinality classes at their edges, from the
// smallest and largest effect count over the observed sinks.
func TestVerdictOf(t *testing.T) {
	for _, tc := range []struct {
		lo, hi int32
		want   Verdict
	}{
		{0, 0, Lost}, {-1, 0, Lost}, {1, 1, ExactlyOnce}, {2, 2, Duplicated}, {1000, 1000, Duplicated},
		{0, 1, Lost},       // one step of a two-sink operation never happened
		{0, 2, Duplicated}, // a duplicate anywhere outranks a loss elsewhere
		{1, 2, Duplicated},
	} {
		if got := VerdictOf(tc.lo, tc.hi); got != tc.want {
			t.Errorf("VerdictOf(%d, %d) = %s, want %s", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestCheckerSeveralSinks checks an operation observed on two sinks: an
// effect on one of them only is a loss, one on each is exactly once.
func TestCheckerSeveralSinks(t *testing.T) {
	obs := Observation{Sinks: []SinkID{2, 5}}
	c := NewChecker(obs, 3)
	if c.ObservedSinks() != 2 {
		t.Fatalf("ObservedSinks() = %d, want 2", c.ObservedSinks())
	}
	// op-1 once on both sinks, op-2 on one only, op-3 twice on one.
	s := stream{}.effect(2, 1).effect(5, 1).effect(2, 2).effect(5, 3).effect(5, 3).effect(2, 3)
	for i := range s {
		c.Record(&s[i])
	}
	for _, w := range []struct {
		op      OpID
		lo, hi  int32
		verdict Verdict
	}{{1, 1, 1, ExactlyOnce}, {2, 0, 1, Lost}, {3, 1, 2, Duplicated}} {
		tl := c.Tally(w.op)
		lo, hi := tl.MinEffects(2), tl.MaxEffects(2)
		if lo != w.lo || hi != w.hi || VerdictOf(lo, hi) != w.verdict {
			t.Errorf("%s: effects %d..%d (%s), want %d..%d (%s)", w.op, lo, hi, VerdictOf(lo, hi), w.lo, w.hi, w.verdict)
		}
	}
	if got, why := c.Judge(AtLeastOne, true); got != Violated || !strings.Contains(why, "op-2 has 0 effects") {
		t.Errorf("at-least-once: %s (%q), want op-2 violated", got, why)
	}
}

// TestCheckerCopyIsIndependent checks copyFrom (used to clone worlds).
func TestCheckerCopyIsIndependent(t *testing.T) {
	src := fold(2, stream{}.effect(tLedger, 1).drop(DropLoss))
	var dst Checker
	dst.copyFrom(src)
	src.Record(&Event{Kind: EvEffect, Label: uint16(tLedger), Msg: Message{Op: 1}})
	src.Record(&Event{Kind: EvCrash})
	if got := effects(&dst, 1); got != 1 {
		t.Errorf("copy's op-1 effects = %d after the source changed, want 1", got)
	}
	var oneLoss FaultCounts
	oneLoss.Add(ChoiceLoss, 1)
	if got := dst.Faults(); got != oneLoss {
		t.Errorf("copy's faults = %+v after the source changed, want one loss", got)
	}
	if got := effects(src, 1); got != 2 {
		t.Errorf("source's op-1 effects = %d, want 2", got)
	}
}

// TestCheckerSinksInDeclaredOrder checks that per-sink counts follow the
// order the observation lists its sinks, not their numbers (which change
// with registration order), and that a sink listed twice counts once.
func TestCheckerSinksInDeclaredOrder(t *testing.T) {
	c := NewChecker(Observation{Sinks: []SinkID{5, 2, 5}}, 1)
	if c.ObservedSinks() != 2 {
		t.Fatalf("ObservedSinks() = %d, want 2", c.ObservedSinks())
	}
	s := stream{}.effect(5, 1).effect(5, 1).effect(2, 1)
	for i := range s {
		c.Record(&s[i])
	}
	if got := c.Tally(1).Sinks; got[0] != 2 || got[1] != 1 {
		t.Fatalf("per-sink effects %v, want [2 1 …] (sink 5 first, as listed)", got)
	}
}
