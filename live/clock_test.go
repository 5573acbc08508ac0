package live

import (
	"testing"
	"time"
)

// sleeping starts a party that sleeps on c until at, and returns a channel
// that gets what sleepUntil returned.
func sleeping(c *vclock, at time.Duration, wake <-chan struct{}) <-chan bool {
	woke := make(chan bool, 1)
	c.spawn(func() { woke <- c.sleepUntil(at, wake, nil) })
	return woke
}

// stillAsleep fails unless woke stays empty a while (20 ms of real time):
// the clock did not jump.
func stillAsleep(t *testing.T, woke <-chan bool, why string) {
	t.Helper()
	select {
	case <-woke:
		t.Fatalf("the clock jumped %s", why)
	case <-time.After(20 * time.Millisecond):
	}
}

// woken waits for the sleeper (a jump makes it prompt; wall speed would
// take an hour, and the test's own deadline ends it) and returns what it
// returned.
func woken(t *testing.T, woke <-chan bool) bool {
	t.Helper()
	select {
	case ok := <-woke:
		return ok
	case <-time.After(time.Minute):
		t.Fatal("the clock did not jump to the sleeper's deadline")
	}
	return false
}

// With jumps on, a run with only a timer left goes to its deadline at
// once: an hour of scenario time, and the clock reads it.
func TestClockJumpsToTheNextDeadline(t *testing.T) {
	c := newClock()
	c.jumping(true)
	if !woken(t, sleeping(c, time.Hour, nil)) {
		t.Fatal("the sleep was stopped, not woken")
	}
	if now := c.now(); now < time.Hour {
		t.Fatalf("after the jump the clock reads %s", now)
	}
	if c.skipped() < time.Hour-time.Second {
		t.Fatalf("jumped %s", c.skipped())
	}
	waitBalanced(t, c)
}

// Nothing jumps while a party works, a request is on its way into the
// fault layer, or a request runs service code; each, ended, lets it jump.
func TestClockDoesNotJumpPastWork(t *testing.T) {
	for _, c := range []struct {
		name       string
		busy, done func(*vclock)
	}{
		{"a party at work", (*vclock).enter, (*vclock).exit},
		{"a request on its way", func(c *vclock) { c.sending(reqID{1, 1}) }, func(c *vclock) { c.took(reqID{1, 1}) }},
		{"service code running", func(c *vclock) { c.service(true) }, func(c *vclock) { c.service(false) }},
		{"an answer on its way into the client", func(c *vclock) { c.holdFor(reqID{2, 1}) }, func(c *vclock) { c.releaseFor(reqID{2, 1}) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := newClock()
			clk.jumping(true)
			c.busy(clk)
			woke := sleeping(clk, time.Hour, nil)
			stillAsleep(t, woke, "past "+c.name)
			c.done(clk)
			if !woken(t, woke) {
				t.Fatal("stopped, not woken")
			}
			waitBalanced(t, clk)
		})
	}
}

// Jumps off (a --target service keeps its own clock): the clock runs at
// wall speed and an hour's sleep is not over.
func TestClockWithoutJumpsRunsAtWallSpeed(t *testing.T) {
	c := newClock()
	stop := make(chan struct{})
	woke := sleeping(c, time.Hour, stop)
	stillAsleep(t, woke, "with jumps off")
	close(stop)
	if woken(t, woke) {
		t.Fatal("a stopped sleep reported it woke")
	}
	waitBalanced(t, c)
}

// A wake channel closed wins over a deadline reached at the same moment,
// whatever the scheduler does: the client that got its final answer sends
// no retry.
func TestClockWakeChannelWinsOverDeadline(t *testing.T) {
	c := newClock()
	c.jumping(true)
	c.enter() // at work: no jump yet
	final := make(chan struct{})
	woke := sleeping(c, time.Second, final)
	close(final)
	c.exit()
	if woken(t, woke) {
		t.Fatal("the retry timer fired although the final answer came first")
	}
	waitBalanced(t, c)
}

// A jump past the scenario's time budget cuts the run instead.
func TestClockBudgetCutsInsteadOfJumping(t *testing.T) {
	c := newClock()
	cut := make(chan struct{})
	c.budget(10*time.Second, func() { close(cut) })
	c.jumping(true)
	woke := sleeping(c, time.Minute, cut)
	select {
	case <-cut:
	case <-time.After(time.Minute):
		t.Fatal("the budget did not cut the run")
	}
	if woken(t, woke) {
		t.Fatal("the sleeper past the budget woke")
	}
	if c.now() >= 10*time.Second {
		t.Fatalf("the clock went past the budget: %s", c.now())
	}
}

// waitBalanced waits until the sleepers' goroutines are done: every party
// counted itself out.
func waitBalanced(t *testing.T, c *vclock) {
	t.Helper()
	for range 1000 {
		if c.balanced() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the clock's count is uneven: a party did not count itself out")
}
