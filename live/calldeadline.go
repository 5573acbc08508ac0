package live

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oncesim/once/sim"
)

// callDeadline is the fault layer of the intent service's provider calls
// (ambiguous-external-outcome): the service → gateway Proxy, with the
// service's call deadline on the run's virtual clock. A charge is decided
// as any message (lost, slow, late, duplicated, its result lost on the way
// back); the caller gets the provider's answer if it arrives within the
// call-timeout, and 504 when the deadline passes first — the outcome is
// unknown, whether the request was lost, its answer lost, or both only
// late. A charge that is late still reaches the gateway at its arrival
// time, and an answer that arrives after the deadline is delivered to the
// service then (POST /webhooks/charges, as a provider's webhook): it
// completes the intent, as the simulator's late result does. Lookups and
// crash points go to the Proxy.
type callDeadline struct {
	*Proxy
	route   route         // charge, charge-result
	timeout time.Duration // the call-timeout, in real time of the run's clock
	service func() string // the service's base URL, "" while it is down
	client  *http.Client
	flying  atomic.Int64
}

// Idle reports whether no call is relayed and no late answer is on its way.
func (c *callDeadline) Idle() bool { return c.Proxy.Idle() && c.flying.Load() == 0 }

// callWait is one call's meeting point of its answer and its deadline:
// whichever comes first decides.
type callWait struct {
	mu     sync.Mutex
	got    chan struct{} // closed when an answer is taken
	closed bool
	ok     bool
	res    relayed
	at     time.Duration
}

// give hands an answer that arrived at at to the waiting caller; false
// when the deadline passed first (the answer is late).
func (w *callWait) give(res relayed, at time.Duration) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.closed, w.ok, w.res, w.at = true, true, res, at
	close(w.got)
	return true
}

// take returns the answer, if one came; else it closes the wait: any
// answer from now on is late.
func (w *callWait) take() (relayed, time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	return w.res, w.at, w.ok
}

// callerOf reads HeaderCaller ("op,attempt"): the request inside the
// service that waits for the call.
func callerOf(h http.Header) (reqID, bool) {
	a, b, ok := strings.Cut(h.Get(HeaderCaller), ",")
	op, err1 := strconv.ParseInt(a, 10, 32)
	attempt, err2 := strconv.ParseInt(b, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return reqID{}, false
	}
	return reqID{int32(op), int32(attempt)}, true
}

// ServeHTTP relays one provider call with its deadline.
func (c *callDeadline) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != PathCharges {
		c.Proxy.ServeHTTP(w, r)
		return
	}
	c.flying.Add(1)
	defer c.flying.Add(-1)
	c.Decider.clk.enter() // a party at work on the run's clock
	defer c.Decider.clk.exit()
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return
	}
	op, calls, err := identity(r.Header)
	if err != nil {
		writeProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	caller, ok := callerOf(r.Header)
	if !ok {
		caller = reqID{op, calls}
	}
	var cr chargeRequest
	json.Unmarshal(body, &cr)
	// The caller waits outside the service until the answer or the
	// deadline: the run's clock runs meanwhile.
	was := c.Act.set(caller, away)
	var backOnce sync.Once
	back := func() { backOnce.Do(func() { c.Act.set(caller, was) }) }
	defer back()

	dec := c.Decider
	m := sim.Message{From: c.route.from, To: c.route.to, Kind: c.route.req, Op: sim.OpID(op), Attempt: calls, Key: dec.KeyID(cr.Key)}
	began := dec.Elapsed()
	deadline := began + c.timeout
	wait := &callWait{got: make(chan struct{})}
	fate := dec.Transmit(m)
	if !fate.Drop {
		req := r.Clone(context.Background())
		c.fly(req, m, body, cr.Key, began+time.Duration(fate.Delay)*c.Tick, wait)
		if fate.Duplicate {
			c.fly(req, m, body, cr.Key, began+time.Duration(fate.DupDelay)*c.Tick, wait)
		}
	}
	if !dec.SleepUntil(deadline, wait.got, c.Done) {
		select {
		case <-wait.got:
		default: // the run is over
			panic(http.ErrAbortHandler)
		}
	}
	res, at, answered := wait.take()
	back()
	if !answered {
		w.Header().Set(HeaderNow, strconv.FormatInt(int64(deadline/c.Tick), 10))
		writeProblem(w, statusTimeout, "no answer from the provider within the call timeout: the outcome is unknown")
		return
	}
	for k, v := range res.header {
		w.Header()[k] = v
	}
	w.Header().Set(HeaderNow, strconv.FormatInt(int64(at/c.Tick), 10))
	w.WriteHeader(res.code)
	w.Write(res.body)
}

// fly carries one copy of the call to the gateway at arrival and its
// answer back: to the waiting caller if it arrives before the deadline,
// else to the service's webhook.
func (c *callDeadline) fly(r *http.Request, m sim.Message, body []byte, ref string, arrival time.Duration, wait *callWait) {
	c.flying.Add(1)
	c.Decider.clk.spawn(func() {
		defer c.flying.Add(-1)
		if !c.Decider.SleepUntil(arrival, c.Done, nil) {
			return
		}
		res, ok := c.deliver(r, m, body, arrival)
		if !ok || !c.respond(c.route, m, res) {
			return // the gateway is away, or the answer is lost
		}
		at := c.Decider.Elapsed()
		if wait.give(res, at) {
			return
		}
		var cr chargeResponse
		if res.code != http.StatusCreated || json.Unmarshal(res.body, &cr) != nil {
			return
		}
		c.late(m, chargeNotice{Ref: ref, Op: int32(m.Op), TxnID: cr.TxnID}, at)
	})
}

// late delivers an answer that came after its call's deadline to the
// service: a request inside the service of its own, named (op, -call).
func (c *callDeadline) late(m sim.Message, n chargeNotice, at time.Duration) {
	target := c.service()
	if target == "" {
		return
	}
	id := reqID{int32(m.Op), -m.Attempt}
	c.Act.enter(id)
	defer c.Act.leave(id)
	body, _ := json.Marshal(n)
	req, err := http.NewRequest(http.MethodPost, target+PathChargeWebhook, bytes.NewReader(body))
	if err != nil {
		return
	}
	setIdentity(req.Header, id.op, id.attempt)
	req.Header.Set(HeaderNow, strconv.FormatInt(int64(at/c.Tick), 10))
	req.Header.Set("Content-Type", "application/json")
	c.Decider.clk.exit() // the webhook runs service code: its running state holds the clock
	resp, err := c.client.Do(req)
	c.Decider.clk.enter()
	if err != nil {
		return
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}
