package sim

import "testing"

// TestClassifyOp pins every operation outcome to the tally that makes it.
func TestClassifyOp(t *testing.T) {
	refused := func(status int32) OpTally {
		tl := OpTally{Attempts: 1, Outcomes: 1, nDistinct: 1}
		tl.distinct[0] = outcomeResult{status: status}
		return tl
	}
	cases := []struct {
		name     string
		t        OpTally
		sinks    int
		finished bool
		want     OpOutcome
	}{
		{"one effect", OpTally{Attempts: 1, Sinks: [MaxObservedSinks]int32{1}}, 1, true, OpExactlyOnce},
		{"two effects", OpTally{Attempts: 2, Sinks: [MaxObservedSinks]int32{2}}, 1, true, OpDuplicated},
		{"no effect, answered 200", refused(200), 1, true, OpLost},
		{"no effect, answered 422", refused(422), 1, true, OpRefused},
		{"no effect, 422 on an unfinished run", refused(422), 1, false, OpRefused},
		{"never sent, unfinished", OpTally{}, 1, false, OpNotStarted},
		{"never sent, finished", OpTally{}, 1, true, OpLost},
		{"sent, no answer, unfinished", OpTally{Attempts: 1}, 1, false, OpPending},
		{"one sink of two", OpTally{Attempts: 1, Sinks: [MaxObservedSinks]int32{1, 0}}, 2, true, OpPartial},
		{"both sinks once", OpTally{Attempts: 1, Sinks: [MaxObservedSinks]int32{1, 1}}, 2, true, OpExactlyOnce},
		{"one sink twice", OpTally{Attempts: 1, Sinks: [MaxObservedSinks]int32{2, 0}}, 2, true, OpDuplicated},
	}
	for _, c := range cases {
		if got := ClassifyOp(&c.t, c.sinks, []int32{400, 422}, c.finished); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRefusalKeepsThePromise: a designed refusal does not break "=1",
// an undeclared status does.
func TestRefusalKeepsThePromise(t *testing.T) {
	for _, c := range []struct {
		refusals []int32
		want     Status
	}{{[]int32{422}, Held}, {nil, Violated}} {
		ch := NewChecker(Observation{Origin: 1, Request: 1, Processor: 2, Sinks: []SinkID{1}, Refusals: c.refusals}, 2)
		ch.effect(1, 1)
		ch.outcome(2, 0, 422)
		if got, _ := ch.Judge(ExactlyOne, true); got != c.want {
			t.Errorf("refusals %v: %v, want %v", c.refusals, got, c.want)
		}
		if c.refusals != nil && ch.OpOutcome(2, true) != OpRefused {
			t.Errorf("op-2: %v, want refused", ch.OpOutcome(2, true))
		}
	}
}

// TestRunOutcome: a violated invariant is named and wins over an
// unfinished run; an unfinished run never completes.
func TestRunOutcome(t *testing.T) {
	o := &Outcome{End: TimeBudget, Ops: []OpResult{{Verdict: Lost, Outcome: OpNotStarted}, {Verdict: ExactlyOnce}}}
	r := o.RunOutcome()
	if r.End != RunNeverCompletes || r.Count(OpNotStarted) != 1 || r.Count(OpExactlyOnce) != 1 {
		t.Errorf("unfinished: %+v", r)
	}
	o.Invariants = []InvariantResult{{Name: "a"}, {Name: "agreement", Violation: "x"}}
	if r := o.RunOutcome(); r.End != RunInvariantViolated || len(r.Invariants) != 1 || r.Invariants[0] != "agreement" {
		t.Errorf("violated: %+v", r)
	}
	o.End, o.Invariants = Quiescent, nil
	if r := o.RunOutcome(); r.End != RunCompleted {
		t.Errorf("finished: %+v", r)
	}
}

// TestNeverCompletes: a finished run whose operation's last answer was a
// declared in-progress status, with no effect and no final answer, never
// completes; any other last answer, a final answer, an unfinished run or
// no InProgress declaration leaves it lost (or what it was).
func TestNeverCompletes(t *testing.T) {
	const origin, processor = NodeID(1), NodeID(2)
	answer := func(c *Checker, op OpID, status int32) {
		c.Record(&Event{Kind: EvDeliver, Node: origin, Msg: Message{From: processor, To: origin, Kind: 9, Op: op, Status: status}})
	}
	for _, c := range []struct {
		name       string
		inProgress []int32
		answers    []int32
		final      bool
		finished   bool
		want       OpOutcome
	}{
		{"409 last, finished", []int32{409}, []int32{503, 409}, false, true, OpNeverCompletes},
		{"503 last", []int32{409}, []int32{409, 503}, false, true, OpLost},
		{"409 last, unfinished", []int32{409}, []int32{409}, false, false, OpPending},
		{"409 last, then a final answer", []int32{409}, []int32{409}, true, true, OpLost},
		{"no in-progress declared", nil, []int32{409}, false, true, OpLost},
		{"never answered", []int32{409}, nil, false, true, OpLost},
	} {
		ch := NewChecker(Observation{Origin: origin, Request: 1, Processor: processor, Sinks: []SinkID{1}, InProgress: c.inProgress}, 1)
		ch.sent(origin, 1, 1)
		for _, s := range c.answers {
			answer(ch, 1, s)
		}
		if c.final {
			ch.outcome(1, 0, 200)
		}
		if got := ch.OpOutcome(1, c.finished); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
