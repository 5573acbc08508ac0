package live

import (
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/oncesim/once/sim"
)

// gateDown is the store gate's answer to a statement that never reached
// the store: the service's store timeout has passed.
const gateDown = "down"

// holdBound bounds how long the preempt barrier holds a request when the
// others never reach a point where it may go on (a service that hangs):
// the run stays bounded in time whatever the service does.
const holdBound = 5 * time.Second

// The states of a request inside the payment service, as the fault layer
// sees them.
const (
	running = iota // running service code
	pending        // on its way to the service: delivered soon, at its arrival time
	atGate         // waiting at the store gate for its turn
	away           // waiting outside the service: on the gateway, on an unreachable store
	held           // held at the preempt barrier
)

// reqID names a request by the simulator's identity.
type reqID struct{ op, attempt int32 }

// reqState is one request inside the service: its place in delivery
// order, and its state.
type reqState struct {
	id      reqID
	arrival time.Duration // when the simulator delivers it, from the run's start
	sent    time.Duration // when it was sent
	seq     int64         // order of arrival times given, for the last ties
	state   int
	copies  int // a duplicate delivered while the first is inside
	// out counts the copies of it waiting outside the service (goOut);
	// the request is away only when every copy inside is: one copy
	// running service code holds the clock whatever the others do.
	out     int
	outFrom int // the state it left for away when its last copy went out
	// waited: held at the preempt barrier, and the preempt time is over.
	waited bool
}

// before reports whether r arrives before o in the simulator's order: by
// arrival time; at the same time, the one sent first (the simulator's
// queue keeps the order events were scheduled in), then the lower
// operation and attempt — the order the client sends copies made at the
// same moment (a double click's attempt 1 before 2) — never the order the
// OS scheduler happened to hand them to the fault layer.
func (r *reqState) before(o *reqState) bool {
	switch {
	case r.arrival != o.arrival:
		return r.arrival < o.arrival
	case r.sent != o.sent:
		return r.sent < o.sent
	case r.id.op != o.id.op:
		return r.id.op < o.id.op
	case r.id.attempt != o.id.attempt:
		return r.id.attempt < o.id.attempt
	}
	return r.seq < o.seq
}

// activity is what the fault layer knows of the requests inside the
// payment service, and the scheduler that makes their store steps follow
// the simulator's: in the simulator a store step with no delay is
// answered before anything else runs, so a request's statements follow
// each other with no other request's statement between them — unless a
// preempt holds its reply. Here a request may take a store step only when
// every request delivered before it waits (outside, held, or finished),
// and a preempted request waits at the barrier until every other request
// waits: the order of delivery, not of the OS scheduler, decides.
type activity struct {
	mu      sync.Mutex
	seq     int64
	reqs    map[reqID]*reqState
	changed chan struct{} // closed and replaced on every change
	// clk is held while a request runs service code: the run's virtual
	// clock stands still while the service works, as the simulator's
	// does while a handler runs.
	clk     *vclock
	holding bool
	// inferred are the calls out of the service named by inference
	// (goOutInferred), which move when their request leaves.
	inferred map[*outCall]struct{}
}

func newActivity(clk *vclock) *activity {
	return &activity{reqs: map[reqID]*reqState{}, changed: make(chan struct{}), clk: clk}
}

// wake tells the waiters that something changed, and holds the clock
// while a request runs service code or is free to go on (its turn at the
// gate has come, or its preempt is over and the others wait): such a
// request is about to run, and no jump of the clock may come between.
// The caller holds mu.
func (a *activity) wake() {
	close(a.changed)
	a.changed = make(chan struct{})
	if a.clk == nil {
		return
	}
	busy := false
	for id, r := range a.reqs {
		if r.state == running || (r.state == atGate && a.turnLocked(id)) || (r.state == held && r.waited && !a.othersBusyLocked(id)) {
			busy = true
			break
		}
	}
	if busy != a.holding {
		a.holding = busy
		a.clk.service(busy)
	}
}

// expect records a request on its way to the service, sent at sent, to
// arrive at arrival (the run's offsets): requests take their store steps in the
// order of these times, not in the order the OS delivers them.
func (a *activity) expect(id reqID, sent, arrival time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.reqs[id]; ok {
		return
	}
	a.seq++
	a.reqs[id] = &reqState{id: id, arrival: arrival, sent: sent, seq: a.seq, state: pending}
	a.wake()
}

// forgetPending forgets a request that was expected and never delivered.
func (a *activity) forgetPending(id reqID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.reqs[id]; ok && r.state == pending {
		delete(a.reqs, id)
		a.wake()
	}
}

// enter records a request delivered to the service.
func (a *activity) enter(id reqID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.reqs[id]; ok {
		if r.state == pending {
			r.state = running
		} else {
			r.copies++
			if r.out > 0 && r.state == away { // the new copy runs service code
				r.state = r.outFrom
			}
		}
		a.wake()
		return
	}
	a.seq++
	a.reqs[id] = &reqState{id: id, arrival: 1<<62 + time.Duration(a.seq), sent: 1 << 62, seq: a.seq}
	a.wake()
}

// leave records a request answered (or lost with the service).
func (a *activity) leave(id reqID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.reqs[id]; ok && r.copies > 0 {
		r.copies--
		r.settleOut()
		a.wake()
		return
	}
	if r, ok := a.reqs[id]; ok {
		delete(a.reqs, id)
		a.moveCalls(r)
	}
	a.wake()
}

// goOut records one copy of request id going to wait outside the service
// (a call to the gateway), and returns the function that records it back
// inside. Unlike set, it counts copies: a duplicate and its original
// inside at once (both deliveries of one attempt) are away only while
// both are out, and the first back does not mark the other running.
func (a *activity) goOut(id reqID) (back func()) { return a.goOutCall(id, false) }

// goOutInferred is goOut for a call the fault layer named by inference (a
// --target service's call carries no identity: inferCall): if the request
// it was put on leaves the service while the call is still out, it
// answered without waiting for it, so the call was another attempt's of
// the same operation, and it moves to the operation's first attempt
// (simulator order) still running service code. The double click: the
// attempt that found the key taken answers 409 while the one that took it
// charges; left on the first, the call would leave the second counted as
// running, holding the clock while its charge waits on the clock.
func (a *activity) goOutInferred(id reqID) (back func()) { return a.goOutCall(id, true) }

// outCall is a call out of the service put on a request by inference:
// the request it counts on (out) may change while it is out.
type outCall struct{ on *reqState }

func (a *activity) goOutCall(id reqID, inferred bool) (back func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := a.reqs[id]
	if !ok {
		return func() {}
	}
	r.out++
	r.settleOut()
	call := &outCall{on: r}
	if inferred {
		if a.inferred == nil {
			a.inferred = map[*outCall]struct{}{}
		}
		a.inferred[call] = struct{}{}
	}
	a.wake()
	var once sync.Once
	return func() {
		once.Do(func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			delete(a.inferred, call)
			r := call.on
			if r.out > 0 {
				r.out--
			}
			if r.state == away && r.out <= r.copies {
				r.state = r.outFrom
			}
			a.wake()
		})
	}
}

// moveCalls moves the inferred calls out on r, which left the service, to
// the first attempt of its operation still running service code, if one
// is. The caller holds mu.
func (a *activity) moveCalls(r *reqState) {
	for call := range a.inferred {
		if call.on != r {
			continue
		}
		to := a.firstRunningLocked(r.id.op)
		if to == nil {
			continue
		}
		call.on = to
		to.out++
		to.settleOut()
	}
}

// runningAttempt is the first attempt of op in the simulator's order of
// delivery that runs service code now (delivered and not waiting
// outside); false when none does. The first, not the latest: of attempts
// inside at once under one key, the first delivered is the one a service
// lets through (the others wait, or are answered 409 or the stored
// response), and a wrong guess is put right when its attempt answers
// (goOutInferred). A nil activity knows none.
func (a *activity) runningAttempt(op int32) (int32, bool) {
	if a == nil {
		return 0, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if r := a.firstRunningLocked(op); r != nil {
		return r.id.attempt, true
	}
	return 0, false
}

// firstRunningLocked is the first request of op in delivery order that
// runs service code, or nil. The caller holds mu.
func (a *activity) firstRunningLocked(op int32) *reqState {
	var first *reqState
	for id, r := range a.reqs {
		if id.op == op && r.state == running && (first == nil || r.before(first)) {
			first = r
		}
	}
	return first
}

// settleOut marks r away when every copy inside is out. The caller holds
// mu.
func (r *reqState) settleOut() {
	if r.out > 0 && r.out > r.copies && r.state != away {
		r.outFrom, r.state = r.state, away
	}
}

// set moves a request to state st and returns its previous state.
func (a *activity) set(id reqID, st int) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := a.reqs[id]
	if !ok {
		return running
	}
	was := r.state
	r.state = st
	a.wake()
	return was
}

// waitTurn blocks the request id at the store gate until every request
// that arrives before it in the simulator's order is delivered and waits,
// or stop ends, or holdBound passes. The caller is a party at work on the
// run's clock: it waits idle, and is at work again when its turn comes
// (the clock is held from that moment: wake).
func (a *activity) waitTurn(id reqID, stop <-chan struct{}) {
	a.set(id, atGate)
	defer a.set(id, running)
	if a.clk != nil {
		a.clk.exit()
		defer a.clk.enter()
	}
	bound := time.NewTimer(holdBound)
	defer bound.Stop()
	for {
		a.mu.Lock()
		turn := a.turnLocked(id)
		changed := a.changed
		a.mu.Unlock()
		if turn {
			return
		}
		select {
		case <-changed:
		case <-bound.C:
			return
		case <-stop:
			return
		}
	}
}

// turnLocked reports whether no request that arrives before id in the
// simulator's order runs service code, waits at the gate or is still on
// its way. The caller holds mu.
func (a *activity) turnLocked(id reqID) bool {
	me, ok := a.reqs[id]
	if !ok {
		return true
	}
	for other, r := range a.reqs {
		if other != id && r.before(me) && (r.state == running || r.state == atGate || r.state == pending) {
			return false
		}
	}
	return true
}

// othersBusy reports whether a request other than id runs service code or
// waits for its turn at the gate, and returns a channel closed at the
// next change.
func (a *activity) othersBusy(id reqID) (bool, <-chan struct{}) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.othersBusyLocked(id), a.changed
}

func (a *activity) othersBusyLocked(id reqID) bool {
	for other, r := range a.reqs {
		if other != id && (r.state == running || r.state == atGate) {
			return true
		}
	}
	return false
}

// preempted marks the held request id's preempt time over: it goes on
// once no other request runs service code or waits at the gate.
func (a *activity) preempted(id reqID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.reqs[id]; ok {
		r.waited = true
		a.wake()
	}
}

// ready reports whether the held request id may go on: its preempt time
// is over and the others wait; and returns a channel closed at the next
// change.
func (a *activity) ready(id reqID) (bool, <-chan struct{}) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := a.reqs[id]
	return !ok || (r.waited && !a.othersBusyLocked(id)), a.changed
}

// storeGate is the fault layer of the key store node of the
// checked-payment-service scenarios (concurrent-same-key,
// store-outage-fail-closed). The service asks it before each store
// statement — is the store reachable? — and after it — the fate of the
// reply. Before: the key store may go down at its crash point (the
// simulator's store-down), and while it is down every statement is
// unreachable: the gate holds the call until the service gives up (its
// store timeout), as a store that does not answer. After: the preempt
// decision holds the request at a barrier, between its SELECT and its
// INSERT, until the preempt time has passed and every other request in the
// service has reached a point where it waits (on the gateway, on the
// store, or at the barrier): the interleaving the simulator's preempt
// makes, decided by the Decider, never by a sleep alone.
type storeGate struct {
	dec              *Decider
	act              *activity
	service, store   sim.NodeID
	point            sim.PointID
	tick             time.Duration
	restart, preempt sim.Time
	// timeout is the service's store timeout (0: none): a statement that
	// does not reach the store is answered "down" when it has passed, as
	// the service's deadline would fire on a reply that never comes.
	timeout sim.Time
	done    <-chan struct{}

	mu        sync.Mutex
	downUntil time.Duration // the run's virtual time the store comes back
}

// ServeHTTP answers GET PathStore?step=before|after&msg=…&op=…&attempt=….
func (g *storeGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	msg, ok := g.dec.topo.MessageByName(q.Get("msg"))
	op, err1 := strconv.ParseInt(q.Get("op"), 10, 32)
	attempt, err2 := strconv.ParseInt(q.Get("attempt"), 10, 32)
	if !ok || err1 != nil || err2 != nil {
		http.Error(w, "bad store step", http.StatusBadRequest)
		return
	}
	id := reqID{int32(op), int32(attempt)}
	switch q.Get("step") {
	case "before":
		g.act.waitTurn(id, mergeDone(r, g.done))
		m := sim.Message{From: g.service, To: g.store, Kind: msg, Op: sim.OpID(op), Attempt: int32(attempt)}
		if !g.before(m) {
			g.act.set(id, away)
			// Unreachable: no answer until the service's deadline, on the
			// run's virtual clock.
			if g.timeout > 0 && g.dec.SleepUntil(g.dec.Elapsed()+time.Duration(g.timeout)*g.tick, r.Context().Done(), g.done) {
				g.act.set(id, running)
				io.WriteString(w, gateDown)
				return
			}
			if g.timeout <= 0 {
				g.dec.clk.exit() // no deadline: idle until the service gives up
				select {
				case <-r.Context().Done():
				case <-g.done:
				}
				g.dec.clk.enter()
			}
			g.act.set(id, running)
			panic(http.ErrAbortHandler)
		}
	case "after":
		m := sim.Message{From: g.store, To: g.service, Kind: msg, Op: sim.OpID(op), Attempt: int32(attempt)}
		g.dec.Transmit(m)
		if g.dec.Preempt(m) {
			g.hold(r, id)
		}
	default:
		http.Error(w, "bad store step", http.StatusBadRequest)
		return
	}
	io.WriteString(w, oracleGoOn)
}

// before decides whether the statement m reaches the store: false when the
// store is down or goes down now (the statement is lost).
func (g *storeGate) before(m sim.Message) bool {
	if g.dec.Transmit(m).Drop {
		return false
	}
	g.mu.Lock()
	down := g.dec.Elapsed() < g.downUntil
	g.mu.Unlock()
	if down {
		g.dec.Record(sim.Event{Kind: sim.EvDrop, Node: m.From, Peer: m.To, Reason: sim.DropDown, Msg: m})
		return false
	}
	g.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: m.To, Peer: m.From, Msg: m})
	if crash, _ := g.dec.Point(g.store, g.point, m); !crash {
		return true
	}
	back := g.dec.Elapsed() + time.Duration(g.restart)*g.tick
	g.mu.Lock()
	g.downUntil = back
	g.mu.Unlock()
	g.dec.clk.spawn(func() { // the store comes back: the simulator's restart event
		if g.dec.SleepUntil(back, g.done, nil) {
			g.dec.Record(sim.Event{Kind: sim.EvRestart, Node: g.store, Peer: sim.NoNode})
		}
	})
	return false
}

// hold is the preempt barrier: the request waits until the preempt time
// has passed and no other request runs service code or waits for its
// turn, or the run ends, or holdBound passes. It waits idle on the run's
// clock, and is at work again when it may go on (the clock is held from
// that moment: activity.wake).
func (g *storeGate) hold(r *http.Request, id reqID) {
	g.act.set(id, held)
	defer g.act.set(id, running)
	stop := make(chan struct{})
	defer close(stop)
	at := g.dec.Elapsed() + time.Duration(g.preempt)*g.tick
	g.dec.clk.spawn(func() {
		if g.dec.SleepUntil(at, stop, nil) {
			g.act.preempted(id)
		}
	})
	g.dec.clk.exit()
	defer g.dec.clk.enter()
	bound := time.NewTimer(holdBound)
	defer bound.Stop()
	for {
		ready, changed := g.act.ready(id)
		if ready {
			return
		}
		select {
		case <-changed:
		case <-bound.C:
			return
		case <-r.Context().Done():
			return
		case <-g.done:
			return
		}
	}
}

// mergeDone returns a channel closed when the request's context ends or
// the run is done.
func mergeDone(r *http.Request, done <-chan struct{}) <-chan struct{} {
	out := make(chan struct{})
	go func() {
		select {
		case <-r.Context().Done():
		case <-done:
		}
		close(out)
	}()
	return out
}
