package live

import (
	"fmt"
	"sync"
	"time"
)

// vclock is the run's virtual clock. In the simulator a step takes no
// time: a node handles a message and the clock stands still until the
// next event, and when nothing is left but timers the clock goes straight
// to the earliest. This clock does both for real code:
//
//   - It stands still while some code of the run is busy — a handler of
//     the payment service running between two of its waits, the gateway
//     writing a charge, a service process starting, an answer on its way
//     into the client. Here a step takes real time (a statement, a process
//     start, a loaded machine's scheduler); without this, that time would
//     push every later step of the run.
//   - It jumps (when jumps are on): when nothing holds it, no party of the
//     run is working (active is zero: every goroutine that takes part
//     sleeps on this clock or waits for a party that holds it, and no
//     request is on its way into the fault layer), and no sleeper is due
//     or woken, the clock goes at once to the earliest sleeper's deadline.
//     A late delivery of 60 s takes no real time.
//
// With jumps on, the clock never runs at wall speed: time goes on only by
// jumps, so every event is stamped with the simulator's time. A party that
// counts itself at work while it waits for a timer would stop the run
// until its wall-clock deadline (a process start waits idle for that
// reason: supervisor.watch). Jumps are off where a party keeps its own
// clock (the user's service under --target may not read X-Once-Now):
// there the clock runs at wall speed between holds, as it always did.
//
// The delays, timeouts, outages and restart times of the scenario are
// counted in the simulator's time, and one seed gives the same
// interleaving on an idle laptop and on a machine at load 20.
//
// It is safe for concurrent use.
type vclock struct {
	mu     sync.Mutex
	start  time.Time
	paused time.Duration // total time the clock stood still, less the time it jumped
	since  time.Time     // when the current stop began; zero while it runs
	busy   int           // held by busy code: the clock stands still
	// svc counts requests running service code (activity): the clock
	// stands still, unless the service is frozen.
	svc    int
	frozen int // the service is SIGSTOPped: its requests do not hold the clock
	// starting counts service processes starting (the clock stands
	// still), away the calls their recovery makes to the gateway, which
	// take the link's time as any call does.
	starting, away int
	// tokens are holds keyed by a request (an answer on its way into the
	// client), released by whoever takes the answer.
	tokens map[reqID]int
	// active counts the parties of the run at work: goroutines that are
	// neither sleeping on this clock nor waiting for a party that holds
	// it, and requests the client sent that the fault layer has not
	// taken yet (transit). No jump while it is not zero.
	active   int
	transit  map[reqID]int
	sleepers map[*sleeper]struct{}
	jumps    bool
	// limit, when positive, is the scenario's time budget: a jump past it
	// cuts the run (cut) instead.
	limit   time.Duration
	cut     func()
	jumped  time.Duration // virtual time gone by in jumps
	changed chan struct{} // closed and replaced whenever the clock stops, starts or jumps
	// mark is the latest virtual time anything happened at (an event
	// stamped, a sleeper woken): the clock is never set back before it.
	mark time.Duration
}

// sleeper is one wait on the clock: until at, or until a or b is closed.
type sleeper struct {
	at   time.Duration
	a, b <-chan struct{}
}

// woken reports whether a wake channel of s is closed: the sleeper is
// about to return, and counts as at work.
func (s *sleeper) woken() bool { return isClosed(s.a) || isClosed(s.b) }

func isClosed(c <-chan struct{}) bool {
	if c == nil {
		return false
	}
	select {
	case <-c:
		return true
	default:
		return false
	}
}

func newClock() *vclock {
	return &vclock{start: time.Now(), tokens: map[reqID]int{}, transit: map[reqID]int{},
		sleepers: map[*sleeper]struct{}{}, changed: make(chan struct{})}
}

// jumping turns jumps on (every timed party reads this clock) or off.
func (c *vclock) jumping(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.jumps = on
	c.update()
}

// budget sets the scenario's time budget: a jump past limit calls cut
// (once) instead of jumping.
func (c *vclock) budget(limit time.Duration, cut func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limit, c.cut = limit, cut
}

// begin restarts the clock at zero.
func (c *vclock) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.start, c.paused, c.jumped, c.mark = time.Now(), 0, 0, 0
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

// skipped returns the virtual time the clock went by in jumps.
func (c *vclock) skipped() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.jumped
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

// broadcast wakes every waiter on changed. The caller holds mu.
func (c *vclock) broadcast() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// update stops or starts the clock after a hold changed, and jumps if it
// may. The caller holds mu.
func (c *vclock) update() {
	// With jumps on the clock never runs at wall speed: time goes on only
	// by jumps, so every event is stamped with the simulator's time, on
	// an idle laptop and on a loaded machine alike.
	stop := c.heldLocked() || c.jumps
	t := time.Now()
	switch {
	case stop && c.since.IsZero():
		c.since = t
	case !stop && !c.since.IsZero():
		c.paused += t.Sub(c.since)
		c.since = time.Time{}
	default:
		c.maybeJump()
		return
	}
	c.broadcast()
	c.maybeJump()
}

// heldLocked reports whether code holds the clock: busy code, service
// code running (unless the service is frozen), a process starting. The
// caller holds mu.
func (c *vclock) heldLocked() bool {
	return c.busy > 0 || (c.frozen == 0 && c.svc+max(c.starting-c.away, 0) > 0)
}

// maybeJump moves the clock to the earliest sleeper's deadline when the
// run has nothing else to do: jumps on, the clock not held, no party at
// work, no sleeper due or woken. The caller holds mu.
func (c *vclock) maybeJump() {
	if !c.jumps || c.heldLocked() || c.active != 0 || len(c.sleepers) == 0 {
		return
	}
	now := c.nowLocked(time.Now())
	next := time.Duration(-1)
	for s := range c.sleepers {
		if s.at <= now || s.woken() {
			return // about to return: it counts as at work
		}
		if next < 0 || s.at < next {
			next = s.at
		}
	}
	if c.limit > 0 && next > c.limit {
		if cut := c.cut; cut != nil {
			c.cut = nil
			go cut() // the scenario's time budget: the run ends here
		}
		return
	}
	c.paused -= next - now
	c.jumped += next - now
	c.broadcast()
}

// enter counts one party at work (a goroutine of the run, a handler).
func (c *vclock) enter() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.active++
	c.update()
}

// exit ends one enter: that party is done, or waits for a party that
// holds the clock.
func (c *vclock) exit() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.active--
	c.update()
}

// spawn runs f in a goroutine counted at work from now until f returns:
// the party is counted before the goroutine exists, so no jump falls
// between the two.
func (c *vclock) spawn(f func()) {
	c.enter()
	go func() {
		defer c.exit()
		f()
	}()
}

// sending counts request id at work from the client's send until the
// fault layer takes it (took): on its way, nothing may jump past it.
func (c *vclock) sending(id reqID) { c.countFor(c.transit, id, &c.active) }

// took ends sending(id), if it has not ended: the fault layer took the
// request (and counts itself at work), or the client's call came back
// without it reaching the fault layer.
func (c *vclock) took(id reqID) { c.uncountFor(c.transit, id, &c.active, false) }

// balanced reports whether no party is counted at work and nothing holds
// the clock: true after a run whose every party counted itself evenly.
func (c *vclock) balanced() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.active == 0 && c.busy == 0 && c.svc == 0 && len(c.sleepers) == 0 && len(c.transit) == 0
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

// service sets whether a request runs service code (activity): the
// clock stands still while one does, unless the service is frozen.
func (c *vclock) service(running bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if running {
		c.svc++
	} else if c.svc > 0 {
		c.svc--
	}
	c.update()
}

// holdFor holds the clock for request id until releaseFor(id).
func (c *vclock) holdFor(id reqID) { c.countFor(c.tokens, id, &c.busy) }

// releaseFor ends every hold of request id; none is no-op.
func (c *vclock) releaseFor(id reqID) { c.uncountFor(c.tokens, id, &c.busy, true) }

// countFor counts one more of request id in keys and in total: a request
// on its way (transit, active) or a hold (tokens, busy).
func (c *vclock) countFor(keys map[reqID]int, id reqID, total *int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys[id]++
	*total++
	c.update()
}

// uncountFor ends one of request id's counts in keys and in total, or
// every one with all. Without all, a request with none changes nothing
// (took after the call came back); with all, the clock is let move
// whatever was ended.
func (c *vclock) uncountFor(keys map[reqID]int, id reqID, total *int, all bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := keys[id]
	if !all {
		if n == 0 {
			return
		}
		n = 1
	}
	if keys[id] -= n; keys[id] <= 0 {
		delete(keys, id)
	}
	*total = max(*total-n, 0)
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
// (either may be nil) is closed first — a wake channel closed wins over
// a deadline reached at the same moment, whatever the scheduler does.
// The caller is a party at work (enter, spawn, a handler): it is counted
// idle while it sleeps, and at work again, atomically, when it returns.
func (c *vclock) sleepUntil(at time.Duration, a, b <-chan struct{}) bool {
	s := &sleeper{at: at, a: a, b: b}
	c.mu.Lock()
	c.sleepers[s] = struct{}{}
	c.active--
	c.update()
	c.mu.Unlock()
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		c.mu.Lock()
		if s.woken() {
			c.wokeLocked(s)
			c.mu.Unlock()
			return false
		}
		left := at - c.nowLocked(time.Now())
		if left <= 0 {
			c.wakeAt(at)
			c.wokeLocked(s)
			c.mu.Unlock()
			return true
		}
		c.maybeJump()
		left = at - c.nowLocked(time.Now())
		stopped := !c.since.IsZero()
		changed := c.changed
		c.mu.Unlock()
		if left <= 0 {
			continue
		}
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
		case <-b:
		}
	}
}

// wokeLocked ends sleeper s: the caller is at work again. The caller
// holds mu.
func (c *vclock) wokeLocked(s *sleeper) {
	delete(c.sleepers, s)
	c.active++
	c.update()
}

// JumpsFor reports whether a run's virtual clock jumps over idle time:
// with once's own service (every timed party reads the run's clock), not
// against a --target service, which may keep a clock of its own.
func JumpsFor(target string) bool { return target == "" }

// ClockNote is the line that says how a run's time goes: jumping over
// waits, or, against a service with a clock of its own, at wall speed or
// at the speed --tick sets (tick is the real time of one scenario
// millisecond; 0 is the default, 1 ms).
func ClockNote(target string, tick time.Duration) string {
	if JumpsFor(target) {
		return "virtual clock: waits with nothing to do take no real time"
	}
	if tick > 0 && tick != time.Millisecond {
		return fmt.Sprintf("scaled clock: a millisecond of the scenario takes %v of real time (--tick), so a service that keeps its own time must count its timeouts on X-Once-Now", tick)
	}
	return "wall-speed clock: your service may keep its own time, so timeouts and delays take real time"
}
