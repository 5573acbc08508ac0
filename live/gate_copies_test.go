package live

import "testing"

// A duplicate and its original inside the service at once are one
// request id: it is away only while both copies wait outside, and the
// first copy back marks it running whatever order they return in — the
// hang a naive --target service showed under --dup (the original's
// return marked it running after it had left, so the clock stood still
// while the duplicate's charge waited on it).
func TestActivityCountsCopiesOut(t *testing.T) {
	for _, firstBack := range []int{0, 1} {
		a := newActivity(nil)
		id := reqID{1, 1}
		a.expect(id, 0, 10)
		a.enter(id) // the original
		a.enter(id) // its duplicate
		state := func() int { a.mu.Lock(); defer a.mu.Unlock(); return a.reqs[id].state }
		backs := []func(){a.goOut(id)}
		if got := state(); got != running {
			t.Fatalf("one copy out, one running: state %d, want running", got)
		}
		backs = append(backs, a.goOut(id))
		if got := state(); got != away {
			t.Fatalf("both copies out: state %d, want away", got)
		}
		backs[firstBack]()
		if got := state(); got != running {
			t.Fatalf("one copy back: state %d, want running", got)
		}
		a.leave(id) // that copy answered and left; the other is still out
		if got := state(); got != away {
			t.Fatalf("the copy inside left, the other out: state %d, want away", got)
		}
		backs[1-firstBack]()
		if got := state(); got != running {
			t.Fatalf("the last copy back: state %d, want running", got)
		}
		a.leave(id)
		if _, ok := a.reqs[id]; ok {
			t.Fatal("both copies left, the request is still counted")
		}
	}
}

// A --target service's call carries no identity: the fault layer puts it
// on the operation's first attempt running service code. When that guess
// is wrong — the double click's second attempt took the key and charges
// while the first is answered 409 — the first attempt's answer moves the
// call to the second, so the second counts as waiting outside and the
// clock is free to bring its charge in. Without the move the second
// stayed "running", the clock stood still while its charge waited on the
// clock, and the service's own 30 s client timeout broke the hang: the
// key deleted, the retry charged again (the Go idempotent example charged
// twice on 6 of 10 seeds of --suite payments --rows double_click --tick 0.1,
// each seed taking 30 s).
func TestActivityMovesAnInferredCallWhenItsAttemptAnswers(t *testing.T) {
	for _, caller := range []int32{1, 2} {
		clk := newClock()
		a := newActivity(clk)
		first, second := reqID{1, 1}, reqID{1, 2}
		a.expect(first, 11, 42)
		a.expect(second, 15, 60)
		a.enter(first)
		a.enter(second)
		guess, ok := a.runningAttempt(1)
		if !ok || guess != 1 {
			t.Fatalf("runningAttempt(1) = %d, %v: want the first delivered, 1", guess, ok)
		}
		state := func(id reqID) int { a.mu.Lock(); defer a.mu.Unlock(); return a.reqs[id].state }
		held := func() bool { clk.mu.Lock(); defer clk.mu.Unlock(); return clk.heldLocked() }
		back := a.goOutInferred(reqID{1, guess})
		other := first
		if caller == 1 {
			other = second
		}
		// The attempt that did not call answers and leaves.
		a.leave(other)
		callerID := reqID{1, caller}
		if got := state(callerID); got != away {
			t.Fatalf("caller #%d: after #%d answered, state %d, want away (its call is out)", caller, other.attempt, got)
		}
		if held() {
			t.Fatalf("caller #%d: the clock is held while the only request inside waits on its call", caller)
		}
		back()
		if got := state(callerID); got != running {
			t.Fatalf("caller #%d: the call back, state %d, want running", caller, got)
		}
		if !held() {
			t.Fatalf("caller #%d: running service code again, the clock is not held", caller)
		}
		a.leave(callerID)
		if len(a.reqs) != 0 || len(a.inferred) != 0 {
			t.Fatalf("caller #%d: both answered, left %d requests and %d calls", caller, len(a.reqs), len(a.inferred))
		}
	}
}
