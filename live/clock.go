package live

import (
	"sync"
	"time"
)

// vclock is the run's virtual clock: real time since the run began, less
// every moment some code of the run was busy — a handler of the payment
// service running between two of its waits, the gateway writing a charge,
// a service process starting, an answer on its way into the client. In
// the simulator a step takes no time: the node handles a message and the
// clock stands still until the next event. Here a step takes real time (a
// statement, a process start, a loaded machine's scheduler), and without
// this clock that time would push every later step of the run: a crash
// decided after a statement of 100 ms would catch a request the simulator
// delivers only after it. With it, the delays, timeouts, outages and
// restart times of the scenario are counted in the simulator's time, and
// one seed gives the same interleaving on an idle laptop and on a machine
// at load 20.
//
// It is safe for concurrent use.
type vclock struct {
	mu     sync.Mutex
	start  time.Time
	paused time.Duration // total time the clock stood still
	since  time.Time     // when the current stop began; zero while it runs
	busy   int           // held by busy code: the clock stands still
	frozen int           // the service is SIGSTOPped: the clock runs
	// starting counts service processes starting (the clock stands
	// still), away the calls their recovery makes to the gateway, which
	// take the link's time as any call does.
	starting, away int
	// tokens are holds keyed by a request (an answer on its way into the
	// client), released by whoever takes the answer.
	tokens  map[reqID]int
	changed chan struct{} // closed and replaced whenever the clock stops or starts
	// mark is the latest virtual time anything happened at (an event
	// stamped, a sleeper woken): the clock is never set back before it.
	mark time.Duration
}

func newClock() *vclock {
	return &vclock{start: time.Now(), tokens: map[reqID]int{}, changed: make(chan struct{})}
}

// begin restarts the clock at zero.
func (c *vclock) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.start, c.paused = time.Now(), 0
	if !c.since.IsZero() {
		c.since = c.start
	}
}

// now returns the virtual time since the run began.
func (c *vclock) now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked(time.Now())
}

// stamp returns the virtual time of an event happening now, and marks it:
// the clock is never set back before it.
func (c *vclock) stamp() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.nowLocked(time.Now())
	c.mark = max(c.mark, v)
	return v
}

// wakeAt sets the clock back to at — or to the latest mark, if later —
// for a sleeper that wakes past its time (a timer fires late on a loaded
// machine): the overshoot is not the scenario's time, and without this it
// would add up from one sleep to the next. The caller holds mu.
func (c *vclock) wakeAt(at time.Duration) {
	v := c.nowLocked(time.Now())
	if back := max(at, c.mark); v > back {
		c.paused += v - back
	}
	c.mark = max(c.mark, at)
}

func (c *vclock) nowLocked(t time.Time) time.Duration {
	p := c.paused
	if !c.since.IsZero() {
		p += t.Sub(c.since)
	}
	return t.Sub(c.start) - p
}

// update stops or starts the clock after busy or frozen changed. The
// caller holds mu.
func (c *vclock) update() {
	stop := c.busy+max(c.starting-c.away, 0) > 0 && c.frozen == 0
	t := time.Now()
	switch {
	case stop && c.since.IsZero():
		c.since = t
	case !stop && !c.since.IsZero():
		c.paused += t.Sub(c.since)
		c.since = time.Time{}
	default:
		return
	}
	close(c.changed)
	c.changed = make(chan struct{})
}

// hold stops the clock until the matching release.
func (c *vclock) hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy++
	c.update()
}

// release ends one hold.
func (c *vclock) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy > 0 {
		c.busy--
	}
	c.update()
}

// holdFor holds the clock for request id until releaseFor(id).
func (c *vclock) holdFor(id reqID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tokens[id]++
	c.busy++
	c.update()
}

// releaseFor ends every hold of request id; none is no-op.
func (c *vclock) releaseFor(id reqID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.tokens[id]
	delete(c.tokens, id)
	c.busy = max(c.busy-n, 0)
	c.update()
}

// starts counts a service process starting (+1) or started (-1).
func (c *vclock) starts(delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.starting = max(c.starting+delta, 0)
	c.update()
}

// startAway counts a call of a starting service's recovery on its way to
// the gateway (+1) or back (-1).
func (c *vclock) startAway(delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.away = max(c.away+delta, 0)
	c.update()
}

// freeze lets the clock run while the service is stopped (SIGSTOP): its
// handlers are busy but do nothing, as a paused node in the simulator.
func (c *vclock) freeze(delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frozen = max(c.frozen+delta, 0)
	c.update()
}

// sleepUntil waits until the virtual time reaches at; false when a or b
// (either may be nil) is closed first.
func (c *vclock) sleepUntil(at time.Duration, a, b <-chan struct{}) bool {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		c.mu.Lock()
		left := at - c.nowLocked(time.Now())
		stopped := !c.since.IsZero()
		changed := c.changed
		if left <= 0 {
			c.wakeAt(at)
			c.mu.Unlock()
			return true
		}
		c.mu.Unlock()
		var fire <-chan time.Time
		if !stopped {
			if timer == nil {
				timer = time.NewTimer(left)
			} else {
				timer.Reset(left)
			}
			fire = timer.C
		}
		select {
		case <-fire:
		case <-changed:
			if timer != nil && !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		case <-a:
			return false
		case <-b:
			return false
		}
	}
}
