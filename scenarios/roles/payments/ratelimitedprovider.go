package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// RateLimitedProvider is the public edge of a billing provider. It admits
// at most Limit requests per Window (a fixed window that opens with the
// first request after the previous one closed) and answers the rest 403
// Forbidden — not 429, and without Retry-After — before anything is
// processed. Admitted requests go to the billing core (a card-gateway) with
// the caller's key; the core's answer is relayed as 201. If the core has
// not answered within CoreTimeout the edge answers 504: the charge may
// have happened (its answer was lost) or not (the request was).
type RateLimitedProvider struct {
	Core        sim.NodeID
	Limit       int32
	Window      sim.Time
	CoreTimeout sim.Time
}

const (
	edgeWindow  sim.TableID = iota // row 0: the open window (At = its end, Status = requests admitted)
	edgePending                    // edgeRequest(op, attempt) → pendingCallRow: the caller waiting for the core
)

// edgeRequest is the pending table's key for the request (op, attempt)
// waiting for the core. Ranges: roles.TupleKey's, with roles.AttemptDigits
// for attempt.
func edgeRequest(op sim.OpID, attempt int32) int64 {
	return roles.TupleKey(int64(op), int64(attempt), roles.AttemptDigits)
}

// Start does nothing: the edge only answers.
func (p *RateLimitedProvider) Start(*sim.Context) {}

// Receive admits or rejects a request, or relays the core's answer.
func (p *RateLimitedProvider) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPayRequest:
		if !p.admit(ctx, m.Op) {
			ctx.Send(m.From, httpResponse{Status: roles.StatusForbidden}.encode(envelope{Kind: MsgPayResponse, Op: m.Op, Attempt: m.Attempt}))
			return
		}
		req := decodeHTTPRequest(m)
		ctx.Put(edgePending, edgeRequest(m.Op, m.Attempt), m.Op, pendingCallRow{Caller: m.From}.encode())
		ctx.Send(p.Core, providerCall{Key: req.Key, Body: req.Body}.encode(envelope{Kind: MsgCharge, Op: m.Op, Attempt: m.Attempt}))
		ctx.After(p.CoreTimeout, sim.Timer{Kind: TimerCoreTimeout, Op: m.Op, Attempt: m.Attempt})
	case MsgChargeResult:
		p.answer(ctx, m.Op, m.Attempt, httpResponse{Status: roles.StatusCreated, Result: decodeProviderCall(m).TxnID})
	}
}

// Timer answers 504 for a request the core left unanswered.
func (p *RateLimitedProvider) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind == TimerCoreTimeout {
		p.answer(ctx, t.Op, t.Attempt, httpResponse{Status: roles.StatusGatewayTimeout})
	}
}

// answer replies to a pending request, once.
func (p *RateLimitedProvider) answer(ctx *sim.Context, op sim.OpID, attempt int32, resp httpResponse) {
	req := edgeRequest(op, attempt)
	r, ok := ctx.Get(edgePending, req, op)
	if !ok {
		return // answered already (a late core answer after the 504)
	}
	ctx.Delete(edgePending, req, op)
	ctx.Send(decodePendingCallRow(r).Caller, resp.encode(envelope{Kind: MsgPayResponse, Op: op, Attempt: attempt}))
}

// admit counts the request against the open window. The row keeps the
// window's end as its time stamp, so only time relative to now matters (as
// the explorer's fingerprints assume), and a window opened at time 0 is
// told apart from an unset stamp.
func (p *RateLimitedProvider) admit(ctx *sim.Context, op sim.OpID) bool {
	rec, ok := ctx.Get(edgeWindow, 0, op)
	w := decodeWindowRow(rec)
	if !ok || ctx.Now() >= w.Ends {
		w = windowRow{Ends: ctx.Now() + p.Window}
	}
	if w.Admitted >= p.Limit {
		return false
	}
	w.Admitted++
	ctx.Put(edgeWindow, 0, op, w.encode())
	return true
}

// buildRatelimitedprovider builds a rate-limited-provider node from its options, each declared where it is read.
func buildRatelimitedprovider(a *roles.Args) (sim.Node, []sim.TableSpec) {
	p := &RateLimitedProvider{
		Core:        a.Node("core", "the billing core that charges (a card-gateway)"),
		Limit:       int32(a.Int("limit", 3, 0, 1_000_000, "requests admitted per window")),
		Window:      a.Duration("window", "1s", "length of the rate-limit window"),
		CoreTimeout: a.Duration("core-timeout", "2s", "how long the edge waits for the core before answering 504"),
	}
	if p.Window <= 0 {
		a.Fail("window", "window: a rate-limit window must be longer than 0")
	}
	return p, []sim.TableSpec{{Name: "window", Durable: true}, {Name: "pending"}}
}
