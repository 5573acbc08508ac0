package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// BackoffClient is a billing job that calls a provider's API directly, one
// charge per operation, spaced Interval apart. It has no timeout of its
// own: the provider always answers. A 2xx is the result. A 403 (the
// provider's rate limit, sent without Retry-After) or a 5xx makes it wait a
// fixed Backoff and try again, at most Retries times; after that it gives
// up and records the failure as its result. Under the idempotent semantics
// every attempt of an operation carries the same Idempotency-Key; otherwise
// none. Under at-most-once it never retries.
type BackoffClient struct {
	Service  sim.NodeID
	Interval sim.Time
	Backoff  sim.Time
	Retries  int32
}

// Start schedules the workload.
func (c *BackoffClient) Start(ctx *sim.Context) {
	for op := 1; op <= ctx.Ops(); op++ {
		ctx.After(sim.Time(op-1)*c.Interval, sim.Timer{Kind: roles.TimerStartOp, Op: sim.OpID(op)})
	}
}

func (c *BackoffClient) send(ctx *sim.Context, op sim.OpID, attempt int32) {
	var key idemKey
	if roles.Idempotent(ctx.Semantics()) {
		key = clientKey(op)
	}
	ctx.Put(clientOps, int64(op), op, opRow{State: roles.OpPending, Attempt: attempt}.encode())
	ctx.Send(c.Service, httpRequest{Key: key, Body: fingerprint(roles.Payload(op))}.encode(envelope{Kind: MsgPayRequest, Op: op, Attempt: attempt}))
}

// Timer starts an operation or makes its retry.
func (c *BackoffClient) Timer(ctx *sim.Context, t sim.Timer) {
	switch t.Kind {
	case roles.TimerStartOp:
		c.send(ctx, t.Op, 1)
	case TimerBackoff:
		c.send(ctx, t.Op, t.Attempt+1)
	}
}

// Receive takes a result, or schedules the retry after a 403 or a 5xx.
func (c *BackoffClient) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPayResponse {
		return
	}
	rec, ok := ctx.Get(clientOps, int64(m.Op), m.Op)
	r := decodeOpRow(rec)
	if !ok || r.State != roles.OpPending || r.Attempt != m.Attempt {
		return // not the attempt it waits for
	}
	resp := decodeHTTPResponse(m)
	retryable := resp.Status == roles.StatusForbidden || resp.Status >= 500
	if retryable && ctx.Semantics() != sim.AtMostOnce && m.Attempt <= c.Retries {
		ctx.After(c.Backoff, sim.Timer{Kind: TimerBackoff, Op: m.Op, Attempt: m.Attempt})
		return
	}
	r.State = roles.OpDone
	ctx.Put(clientOps, int64(m.Op), m.Op, r.encode())
	resp.outcome(ctx, m.Op)
}

// buildBackoffclient builds a backoff-client node from its options, each declared where it is read.
func buildBackoffclient(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &BackoffClient{
		Service:  a.Node("service", "the provider it calls"),
		Interval: a.Duration("interval", "20ms", "time between the starts of two operations"),
		Backoff:  a.Duration("backoff", "60s", "the fixed wait before a retry (no Retry-After to go by)"),
		Retries:  int32(a.Int("retries", 1, 0, 100, "retries after a 403 or a 5xx")),
	}
	return c, []sim.TableSpec{{Name: "ops", AgeFree: true}}
}
