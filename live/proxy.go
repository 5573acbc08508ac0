package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/oncesim/once/sim"
)

// route is one kind of call the fault layer relays: who sends it to whom,
// and the simulator's names of its request and response messages.
type route struct {
	from, to  sim.NodeID
	req, resp sim.MsgKind
	// payment marks POST /payments: its request carries the key and the
	// body's fingerprint, its response the status and the result, into
	// the events the invariants and metrics read.
	payment bool
}

// Proxy is the fault layer on one link (client → service, or service →
// gateway). For every call it asks the Decider, under the simulator's
// identity of the message: a lost request is dropped before the handler
// (the connection is closed, nothing answered); a lost response is dropped
// after the handler ran; a duplicate is delivered twice; a slow message
// and the link's delay and jitter are slept, in real time scaled from
// ticks. The receiver is looked up at each call, so a restarted service on
// a new port is found.
type Proxy struct {
	// Provider, in front of a --target service, is the run's provider URL:
	// sent as X-Once-Provider, and once's identity headers (X-Once-Op,
	// X-Once-Attempt) are not sent — your service gets the contract's
	// headers only (docs/live.md).
	Provider string
	Decider  *Decider
	Routes   map[string]route // by URL path
	Target   func() string    // the receiver's base URL, "" while it is down
	Tick     time.Duration    // real duration of one tick (one virtual millisecond)
	Client   *http.Client
	Crash    http.Handler // serves PathCrash, nil when the link has none
	Store    http.Handler // serves PathStore, nil when the link has none
	Done     <-chan struct{}
	// Act, when not nil, is told what the receiver's requests do: on the
	// client → service link a delivered request is inside the service
	// (Inside); on the service → gateway link the caller waits outside it.
	Act    *activity
	Inside bool
	// Infer, when not nil, names a call that carries no identity headers
	// (a charge from the user's own service, under --target).
	Infer func(r *http.Request, body []byte) (op, attempt int32, ok bool)
	// LostWait, when positive, is the caller's call timeout in real time
	// (the lease-payment-service's call-timeout): a lost request or answer
	// closes the connection only that long after the call began, when the
	// simulator's caller gives up, not at once.
	LostWait time.Duration
	// Answers records each answer delivered to the client (the checker
	// keeps the last one's status for an observation's in-progress
	// statuses: a payment whose last answer was 409 never completes).
	Answers bool
	// Points, when not nil, are crash points the fault layer asks itself
	// (the user's service under --restart-cmd, restart.go).
	Points crashPoints
	// Fail, when not nil, is told what of the receiver's answers ends the
	// run, in one line: a redirect, which the fault layer never follows
	// (a loopback --target must not send the payment elsewhere), and,
	// with FailRefused, a connection refused (the user's service stopped
	// listening, and nothing restarts it).
	Fail        func(error)
	FailRefused bool
	inflight    atomic.Int64
}

// giveUp waits, for a lost request or answer, until the caller's call
// timeout from began (LostWait), then closes the connection.
func (p *Proxy) giveUp(r *http.Request, began time.Duration) {
	if p.LostWait > 0 {
		p.Decider.SleepUntil(began+p.LostWait, p.Done, r.Context().Done())
	}
	panic(http.ErrAbortHandler)
}

// Idle reports whether no call is being relayed.
func (p *Proxy) Idle() bool { return p.inflight.Load() == 0 }

// ServeHTTP relays one call.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.inflight.Add(1)
	defer p.inflight.Add(-1)
	// The handler is a party at work on the run's clock until it returns
	// (idle while it sleeps on it, or waits on the service, which holds it).
	p.Decider.clk.enter()
	defer p.Decider.clk.exit()
	if r.URL.Path == PathCrash && p.Crash != nil {
		p.Crash.ServeHTTP(w, r)
		return
	}
	if r.URL.Path == PathStore && p.Store != nil {
		p.Store.ServeHTTP(w, r)
		return
	}
	rt, ok := p.Routes[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return
	}
	op, attempt, err := identity(r.Header)
	inferred := false
	if err != nil && p.Infer != nil {
		if op, attempt, inferred = p.Infer(r, body); inferred {
			err = nil
		}
	}
	if err != nil {
		writeProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	if p.Inside {
		// The client's request is here: this handler is at work for it now.
		p.Decider.clk.took(reqID{op, attempt})
	}
	// back is the caller's return into the service: from here it runs
	// service code again (and the clock stands still).
	back := func() {}
	if p.Act != nil && !p.Inside {
		// Counted per copy: a duplicate's return is not the original's.
		goOut := p.Act.goOut
		if inferred {
			goOut = p.Act.goOutInferred
		}
		comeBack := goOut(reqID{op, attempt})
		if attempt == 0 { // a call of the service's recovery, while it starts
			p.Decider.clk.startAway(1)
		}
		var once sync.Once
		back = func() {
			once.Do(func() {
				if attempt == 0 {
					p.Decider.clk.startAway(-1)
				}
				comeBack()
			})
		}
		defer back()
	}
	m := sim.Message{From: rt.from, To: rt.to, Kind: rt.req, Op: sim.OpID(op), Attempt: attempt}
	if rt.payment {
		m.Key = p.Decider.KeyID(r.Header.Get(HeaderIdempotencyKey))
		m.Value, _ = userOf(r.Header) // the user, as a rest request carries it
		var pr paymentRequest
		if json.Unmarshal(body, &pr) == nil {
			m.Payload = pr.Amount
		}
	}
	gen := 0
	if p.Points != nil && !p.Inside {
		var sent bool
		if gen, sent = p.Points.call(m); !sent {
			panic(http.ErrAbortHandler) // the service crashed before its call went out
		}
	}
	began := p.Decider.Elapsed()
	fate := p.Decider.Transmit(m)
	if fate.Drop {
		p.giveUp(r, began) // lost before the handler: no answer, the connection closes
	}
	// A request that says when it was sent is delayed from then (the
	// simulator's send time, on the run's virtual clock), not from when it
	// reached the fault layer.
	sent := p.Decider.Elapsed()
	if us, err := strconv.ParseInt(r.Header.Get(HeaderSentAt), 10, 64); err == nil {
		sent = time.Duration(us) * time.Microsecond
	}
	arrival := sent + time.Duration(fate.Delay)*p.Tick
	if p.Act != nil && p.Inside {
		// The request's place in the simulator's order: when it arrives.
		p.Act.expect(reqID{op, attempt}, sent, arrival)
		defer p.Act.forgetPending(reqID{op, attempt}) // never delivered (the service down, the run over)
	}
	if fate.Duplicate {
		p.inflight.Add(1)
		p.Decider.clk.spawn(func() {
			defer p.inflight.Add(-1)
			if p.Decider.SleepUntil(sent+time.Duration(fate.DupDelay)*p.Tick, p.Done, nil) {
				if res, ok := p.deliver(r, m, body, sent+time.Duration(fate.DupDelay)*p.Tick); ok {
					p.respond(rt, m, res) // the copy's answer goes nowhere: the client reads one
				}
			}
		})
	}
	if !p.Decider.SleepUntil(arrival, p.Done, nil) {
		panic(http.ErrAbortHandler)
	}
	res, ok := p.deliver(r, m, body, arrival)
	if !ok || (p.Points != nil && p.Inside && !p.Points.answer(m)) {
		panic(http.ErrAbortHandler)
	}
	if !p.respond(rt, m, res) {
		p.giveUp(r, began) // lost after the handler ran
	}
	if p.Points != nil && !p.Inside &&
		!p.Points.result(sim.Message{From: rt.to, To: rt.from, Kind: rt.resp, Op: m.Op, Attempt: m.Attempt}, res.code, gen) {
		panic(http.ErrAbortHandler) // the service crashed at the answer, or is gone
	}
	back()
	if p.Inside {
		// The answer is on its way into the client: the clock stands still
		// until the client has taken it (Client releases it), so its retry
		// timer cannot fire between the two.
		p.Decider.clk.holdFor(reqID{op, attempt})
	}
	for k, v := range res.header {
		w.Header()[k] = v
	}
	w.WriteHeader(res.code)
	w.Write(res.body)
}

// relayed is a receiver's answer.
type relayed struct {
	code   int
	header http.Header
	body   []byte
}

// deliver hands m to the receiver and returns its answer; false when the
// receiver is down or answered nothing (it crashed, or dropped a copy).
func (p *Proxy) deliver(r *http.Request, m sim.Message, body []byte, at time.Duration) (relayed, bool) {
	target := p.Target()
	if target == "" {
		p.Decider.Record(sim.Event{Kind: sim.EvDrop, Node: m.From, Peer: m.To, Reason: sim.DropDown, Msg: m})
		return relayed{}, false
	}
	p.Decider.Record(sim.Event{Kind: sim.EvDeliver, Node: m.To, Peer: m.From, Msg: m})
	if p.Act != nil && p.Inside {
		id := reqID{int32(m.Op), m.Attempt}
		p.Act.enter(id)
		defer p.Act.leave(id)
	}
	if !p.Inside {
		// The gateway's work takes no time in the simulator.
		p.Decider.clk.hold()
		defer p.Decider.clk.release()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-p.Done:
			cancel()
		case <-ctx.Done():
		}
	}()
	req, err := http.NewRequestWithContext(ctx, r.Method, target+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return relayed{}, false
	}
	for _, h := range []string{HeaderIdempotencyKey, HeaderOp, HeaderAttempt, HeaderAuthorization, "Content-Type"} {
		if v := r.Header.Get(h); v != "" && (p.Provider == "" || (h != HeaderOp && h != HeaderAttempt)) {
			req.Header.Set(h, v)
		}
	}
	if p.Provider != "" {
		req.Header.Set(HeaderProvider, p.Provider)
	}
	if p.Inside && p.Tick > 0 {
		req.Header.Set(HeaderNow, strconv.FormatInt(int64(at/p.Tick), 10))
	}
	if p.Infer != nil && r.Header.Get(HeaderOp) == "" { // the inferred identity, for the gateway's ledger
		setIdentity(req.Header, int32(m.Op), m.Attempt)
	}
	if p.Act != nil && p.Inside {
		// The service works on it: the request's running state holds the
		// clock (and a frozen service lets it run), not this handler.
		p.Decider.clk.exit()
	}
	resp, err := p.Client.Do(req)
	if p.Act != nil && p.Inside {
		p.Decider.clk.enter()
	}
	if err != nil {
		if p.Fail != nil && p.FailRefused && errors.Is(err, syscall.ECONNREFUSED) {
			p.Fail(errTargetStopped(MaskURL(target)))
		}
		return relayed{}, false
	}
	defer resp.Body.Close()
	if loc := resp.Header.Get("Location"); p.Fail != nil && resp.StatusCode >= 300 && resp.StatusCode < 400 && loc != "" {
		p.Fail(errTargetRedirect(r.Method, r.URL.Path, resp.Status, MaskURL(loc)))
		return relayed{}, false // not an answer to hand on: the run ends
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return relayed{}, false
	}
	h := http.Header{}
	for _, k := range []string{"Content-Type", HeaderReplayed} {
		if v := resp.Header.Get(k); v != "" {
			h.Set(k, v)
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(data)))
	return relayed{code: resp.StatusCode, header: h, body: data}, true
}

// respond decides the fate of the answer to m and sleeps its delay; false
// when it is lost.
func (p *Proxy) respond(rt route, m sim.Message, res relayed) bool {
	back := sim.Message{From: rt.to, To: rt.from, Kind: rt.resp, Op: m.Op, Attempt: m.Attempt}
	if rt.payment {
		var pr paymentResponse
		json.Unmarshal(res.body, &pr)
		back.Status, back.Value = int32(res.code), pr.TxnID
	}
	fate := p.Decider.Transmit(back)
	if fate.Drop {
		return false
	}
	// A duplicated answer changes nothing: an HTTP response cannot arrive
	// twice on one connection, the client's transport reads one.
	if !p.sleep(fate.Delay) {
		return false
	}
	if p.Answers {
		p.Decider.Record(sim.Event{Kind: sim.EvDeliver, Node: back.To, Peer: back.From, Msg: back})
	}
	return true
}

// sleep waits d ticks on the run's virtual clock; false when the run is
// cancelled.
func (p *Proxy) sleep(d sim.Time) bool {
	return p.Decider.SleepUntil(p.Decider.Elapsed()+time.Duration(d)*p.Tick, p.Done, nil)
}
