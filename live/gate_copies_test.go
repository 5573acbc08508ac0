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
