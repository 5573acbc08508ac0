package sim

import "testing"

// A reason's English sentence is the one the JSON has always carried:
// reports in other languages render the kind and its values, but the
// contract stays byte for byte.
func TestReasonEnglish(t *testing.T) {
	for _, c := range []struct {
		r    Reason
		want string
	}{
		{Reason{Kind: ReasonDuplicate, Op: 2, N: 2, Promise: ExactlyOne}, "op-2 has 2 effects, wanted =1"},
		{Reason{Kind: ReasonDivergent, Op: 3, N: 2, Promise: ExactlyOne}, "op-3 got 2 different results for one key, wanted =1"},
		{Reason{Kind: ReasonNoEffectYet, Op: 1, Promise: AtLeastOne}, "op-1 has no effect yet and the run did not finish"},
		{Reason{Kind: ReasonNoEffect, Op: 4, Promise: AtLeastOne}, "op-4 has 0 effects on a finished run, wanted ≥1"},
		{Reason{Kind: ReasonUnfinished, Promise: AtMostOne}, "the run did not finish; more effects could still appear"},
		{Reason{Kind: ReasonInvariant, Invariant: "one-receipt", Detail: "op-2 got two receipts"}, "one-receipt: op-2 got two receipts"},
		{Reason{Promise: ExactlyOne}, ""},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

// The checker keeps the reason as data: the operation and the count it
// quotes, and the promise judged.
func TestCheckerJudgeReason(t *testing.T) {
	c := &Checker{nsinks: 1, ops: make([]OpTally, 3)}
	c.ops[2].Sinks[0] = 3
	c.ops[1].Sinks[0] = 1
	status, r := c.JudgeReason(AtMostOne, true)
	if status != Violated || r.Kind != ReasonDuplicate || r.Op != 2 || r.N != 3 || r.Promise != AtMostOne {
		t.Fatalf("JudgeReason = %v, %+v; want violated, op-2 with 3 effects against ≤1", status, r)
	}
	if s, why := c.Judge(AtMostOne, true); s != status || why != r.String() {
		t.Errorf("Judge = %v, %q; want JudgeReason's %v, %q", s, why, status, r.String())
	}
}
