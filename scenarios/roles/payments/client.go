package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// HTTPClient issues POST /payments (or POST /orders), one per operation,
// spaced Interval apart. Under at-most-once it sends once and never
// retries; otherwise it retries the same request whenever Timeout passes
// without a final answer, and a 409 (key still in flight), a 503 (try again
// later; with MaxAttempts, final on the last attempt) or a 202 (accepted,
// result pending) is not final. Under the idempotent semantics it sends an
// Idempotency-Key: one per operation, or one of the bugs — a fresh one per
// attempt, op-1's key reused for every later operation, or none until the
// server issues one in a 202.
//
// Clicks > 1 is the double click: that many requests of the operation leave
// at once, each a separate attempt; only the last one arms the retry timer.
//
// TimedKeys makes the key time-ordered, as a UUIDv7 or a ULID is (RFC 9562
// §5.7): it carries the time the operation's first attempt left, and every
// retry sends that same key, so a server can tell how old it is.
//
// A crashable client offers a crash point before every retry
// (PointBeforeRetry): a pause there is the app suspended in the
// background, the laptop closed, the retry queue stalled — the retry
// leaves when the client resumes, with the key it had.
type HTTPClient struct {
	Service      sim.NodeID
	Interval     sim.Time
	Timeout      sim.Time
	MaxAttempts  int32 // 0 = retry until answered
	KeyPerTry    bool  // the new-key-per-retry bug
	ReuseFirst   bool  // the key-reuse bug: every operation sends op-1's key
	ServerIssued bool  // no key of its own: it uses the one a 202 carries
	TimedKeys    bool  // a time-ordered key per operation (timedKey)
	Clicks       int32 // requests sent at once when an operation starts (0 = 1)
	Orders       bool  // POST /orders instead of POST /payments
}

const clientOps sim.TableID = 0

// Start schedules the workload on first boot.
func (c *HTTPClient) Start(ctx *sim.Context) {
	for op := 1; op <= ctx.Ops(); op++ {
		ctx.After(sim.Time(op-1)*c.Interval, sim.Timer{Kind: roles.TimerStartOp, Op: sim.OpID(op)})
	}
}

// idempotencyKey returns the key the client sends, 0 for none.
func (c *HTTPClient) idempotencyKey(ctx *sim.Context, op sim.OpID, attempt int32) idemKey {
	sem := ctx.Semantics()
	if sem == sim.AtMostOnce || sem == sim.AtLeastOnce {
		return 0
	}
	switch {
	case c.KeyPerTry:
		return perTryKey(op, attempt)
	case c.ReuseFirst:
		return clientKey(1)
	case c.ServerIssued:
		r, _ := ctx.Get(clientOps, int64(op), op)
		return decodeOpRow(r).IssuedKey // 0 until a 202 brought one
	case c.TimedKeys:
		if r, ok := ctx.Get(clientOps, int64(op), op); ok && decodeOpRow(r).IssuedKey != 0 {
			return decodeOpRow(r).IssuedKey // a retry: the key the first attempt made
		}
		return timedKey(op, ctx.Now())
	}
	return clientKey(op)
}

// request returns the request kind of the endpoint it calls.
func (c *HTTPClient) request() sim.MsgKind {
	kind, _ := c.kinds()
	return kind
}

// kinds returns the request and response kinds of the endpoint it calls.
func (c *HTTPClient) kinds() (sim.MsgKind, sim.MsgKind) {
	if c.Orders {
		return MsgOrder, MsgOrderResponse
	}
	return MsgPayRequest, MsgPayResponse
}

// post sends one attempt and remembers it as the latest.
func (c *HTTPClient) post(ctx *sim.Context, op sim.OpID, attempt int32) {
	key := c.idempotencyKey(ctx, op, attempt)
	row := opRow{State: roles.OpPending, Attempt: attempt}
	if c.ServerIssued || c.TimedKeys {
		row.IssuedKey = key // keep the issued (or made) key for later attempts
	}
	ctx.Put(clientOps, int64(op), op, row.encode())
	kind, _ := c.kinds()
	ctx.Send(c.Service, httpRequest{Key: key, Body: fingerprint(roles.Payload(op))}.encode(envelope{Kind: kind, Op: op, Attempt: attempt}))
}

// send sends one attempt and arms its retry timer.
func (c *HTTPClient) send(ctx *sim.Context, op sim.OpID, attempt int32) {
	c.post(ctx, op, attempt)
	if ctx.Semantics() != sim.AtMostOnce && (c.MaxAttempts == 0 || attempt < c.MaxAttempts) {
		ctx.After(c.Timeout, sim.Timer{Kind: roles.TimerRetry, Op: op, Attempt: attempt})
	}
}

// Timer starts an operation or retries one still unanswered.
func (c *HTTPClient) Timer(ctx *sim.Context, t sim.Timer) {
	switch t.Kind {
	case roles.TimerStartOp:
		for a := int32(1); a < c.Clicks; a++ {
			c.post(ctx, t.Op, a) // the double click: more copies, one retry timer
		}
		c.send(ctx, t.Op, max(c.Clicks, 1))
	case roles.TimerRetry:
		if roles.RetryDue(ctx, clientOps, t) {
			if ctx.CrashPoint(PointBeforeRetry, &sim.Message{Kind: c.request(), Op: t.Op, Attempt: t.Attempt + 1}) {
				return
			}
			c.send(ctx, t.Op, t.Attempt+1)
		}
	}
}

// Receive accepts a final response. Every final response counts as an
// outcome, late ones included: that is how two different transaction ids
// for one payment become visible.
func (c *HTTPClient) Receive(ctx *sim.Context, m sim.Message) {
	if _, kind := c.kinds(); m.Kind != kind {
		return
	}
	resp := decodeHTTPResponse(m)
	lastTry := c.MaxAttempts > 0 && m.Attempt >= c.MaxAttempts
	if resp.Status == roles.StatusConflict || (resp.Status == roles.StatusUnavailable && !lastTry) {
		return // 409: still in flight, 503: not now; the retry timer will ask again
	}
	// A 503 to the last attempt the client makes is the answer it gives
	// up with: the payment failed, and its caller is told so (an SDK's
	// retries exhausted surface the last error). A 409 is not: the
	// payment may still be in flight, and it never completes.
	if resp.Status == roles.StatusAccepted {
		c.learnKey(ctx, m.Op, resp.IssuedKey) // 202: accepted, the result is to be asked for later
		return
	}
	resp.outcome(ctx, m.Op)
	roles.FinishOp(ctx, clientOps, m.Op)
}

// learnKey keeps the key a 202 carries, when the client waits for one.
func (c *HTTPClient) learnKey(ctx *sim.Context, op sim.OpID, issued idemKey) {
	if !c.ServerIssued || issued == 0 {
		return
	}
	rec, ok := ctx.Get(clientOps, int64(op), op)
	if r := decodeOpRow(rec); ok && r.State == roles.OpPending && r.IssuedKey == 0 {
		r.IssuedKey = issued
		ctx.Put(clientOps, int64(op), op, r.encode())
	}
}

// buildClient builds a http-client node from its options, each declared where it is read.
func buildClient(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &HTTPClient{
		Service:     a.Node("service", "the node it calls"),
		Interval:    opInterval(a),
		Timeout:     retryTimeout(a),
		MaxAttempts: int32(a.Int("max-attempts", 0, 0, 1000, "attempts per operation (0 = until answered)")),
	}
	key := a.Enum("key", "per-operation", []string{"per-operation", "per-attempt", "reuse-first", "server-issued", "time-ordered"},
		"one Idempotency-Key per operation; or a bug: a fresh one per attempt, op-1's key reused by every operation, none until the server issues one in a 202; or one per operation that carries the time it was made (a UUIDv7)")
	c.KeyPerTry = key == "per-attempt"
	c.ReuseFirst = key == "reuse-first"
	c.ServerIssued = key == "server-issued"
	c.TimedKeys = key == "time-ordered"
	c.Clicks = int32(a.Int("clicks", 1, 1, 10, "requests sent at once when an operation starts (2 = the double click)"))
	c.Orders = a.Enum("endpoint", "payments", []string{"payments", "orders"}, "POST /payments (pay) or POST /orders (order)") == "orders"
	return c, []sim.TableSpec{{Name: "ops", AgeFree: true}} // an opRow has no time
}
