package scenarios

import "github.com/oncesim/once/sim"

// Client states in its ops table.
const (
	opPending int32 = iota + 1
	opDone
)

// HTTPClient issues POST /payments, one per operation, spaced Interval
// apart. Under at-most-once it sends once and never retries; otherwise it
// retries the same request whenever Timeout passes without a final answer,
// and a 409 (key still in flight) is not final. Under the idempotent
// semantics it sends an Idempotency-Key: one per operation, or — the bug —
// a fresh one per attempt.
type HTTPClient struct {
	Service     sim.NodeID
	Interval    sim.Time
	Timeout     sim.Time
	MaxAttempts int32 // 0 = retry until answered
	KeyPerTry   bool  // the new-key-per-retry bug
}

const clientOps sim.TableID = 0

func httpClientSpec() sim.NodeSpec {
	return sim.NodeSpec{Name: "client", Tables: []sim.TableSpec{{Name: "ops"}}}
}

// Start schedules the workload on first boot.
func (c *HTTPClient) Start(ctx *sim.Context) {
	for op := 1; op <= ctx.Ops(); op++ {
		ctx.After(sim.Time(op-1)*c.Interval, sim.Timer{Kind: TimerStartOp, Op: sim.OpID(op)})
	}
}

// idempotencyKey returns the key the client sends, 0 for none.
func (c *HTTPClient) idempotencyKey(ctx *sim.Context, op sim.OpID, attempt int32) int64 {
	sem := ctx.Semantics()
	if sem == sim.AtMostOnce || sem == sim.AtLeastOnce {
		return 0
	}
	if c.KeyPerTry {
		return int64(op)*1000 + int64(attempt)
	}
	return 1_000_000 + int64(op)
}

// payload is the request body's fingerprint: the amount to charge.
func payload(op sim.OpID) int64 { return 100 + int64(op) }

func (c *HTTPClient) send(ctx *sim.Context, op sim.OpID, attempt int32) {
	ctx.Put(clientOps, int64(op), op, sim.Record{State: opPending, Value: int64(attempt)})
	ctx.Send(c.Service, sim.Message{
		Kind: MsgPayRequest, Op: op, Attempt: attempt,
		Key: c.idempotencyKey(ctx, op, attempt), Payload: payload(op),
	})
	if ctx.Semantics() != sim.AtMostOnce && (c.MaxAttempts == 0 || attempt < c.MaxAttempts) {
		ctx.After(c.Timeout, sim.Timer{Kind: TimerRetry, Op: op, Attempt: attempt})
	}
}

// Timer starts an operation or retries one still unanswered.
func (c *HTTPClient) Timer(ctx *sim.Context, t sim.Timer) {
	switch t.Kind {
	case TimerStartOp:
		c.send(ctx, t.Op, 1)
	case TimerRetry:
		r, ok := ctx.Get(clientOps, int64(t.Op), t.Op)
		if ok && r.State == opPending && r.Value == int64(t.Attempt) {
			c.send(ctx, t.Op, t.Attempt+1)
		}
	}
}

// Receive accepts a final response. Every final response counts as an
// outcome, late ones included: that is how two different transaction ids
// for one payment become visible.
func (c *HTTPClient) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPayResponse || m.Status == StatusConflict {
		return // 409: still in flight; the retry timer will ask again
	}
	ctx.Outcome(m.Op, m.Value*1000+int64(m.Status), m.Status)
	r, ok := ctx.Get(clientOps, int64(m.Op), m.Op)
	if ok && r.State == opPending {
		r.State = opDone
		ctx.Put(clientOps, int64(m.Op), m.Op, r)
	}
}
