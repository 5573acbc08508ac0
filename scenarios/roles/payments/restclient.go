package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// RestClient calls a rest-service, one request per operation, spaced
// Interval apart. Operation op is made by user (op-1) % Users + 1, with
// the method Method names (or, for "mixed", GET, PUT, DELETE, POST, PATCH
// in turn). Under at-most-once it sends once; otherwise it retries whenever
// Timeout passes without an answer — every method alike, as a browser, a
// proxy or a mobile SDK does.
//
// Under the idempotent semantics a POST or a PATCH carries an Idempotency-Key made
// as Keys says: "unique" (one per operation, a UUID), "user-counter" (the
// user's own payment count: 1, 2, 3… — unique per user, the same across
// users) or "omit-odd" (an old app version that sends no key on every other
// operation). GET, PUT and DELETE carry none: they need none.
//
// Every final answer is an outcome (late ones too); the first answer to a
// GET is shown to the user, an effect on applied.
type RestClient struct {
	Service  sim.NodeID
	Interval sim.Time
	Timeout  sim.Time
	Method   int32 // 0 = mixed
	Users    int64
	Keys     string // unique | user-counter | omit-odd
}

const restClientOps sim.TableID = 0

// Start schedules the workload.
func (c *RestClient) Start(ctx *sim.Context) {
	for op := 1; op <= ctx.Ops(); op++ {
		ctx.After(sim.Time(op-1)*c.Interval, sim.Timer{Kind: roles.TimerStartOp, Op: sim.OpID(op)})
	}
}

// method is the method of operation op.
func (c *RestClient) method(op sim.OpID) int32 {
	if c.Method != 0 {
		return c.Method
	}
	return int32((int64(op)-1)%5) + methodGet
}

// user is the user who makes operation op.
func (c *RestClient) user(op sim.OpID) int64 { return (int64(op)-1)%c.Users + 1 }

// key is the Idempotency-Key of operation op's request, 0 for none.
func (c *RestClient) key(ctx *sim.Context, op sim.OpID) idemKey {
	if m := c.method(op); !roles.Idempotent(ctx.Semantics()) || (m != methodPost && m != methodPatch) {
		return 0
	}
	switch c.Keys {
	case "user-counter":
		return idemKey((int64(op)-1)/c.Users + 1) // this user's n-th payment
	case "omit-odd":
		if op%2 == 1 {
			return 0
		}
	}
	return clientKey(op)
}

func (c *RestClient) send(ctx *sim.Context, op sim.OpID, attempt int32) {
	ctx.Put(restClientOps, int64(op), op, opRow{State: roles.OpPending, Attempt: attempt}.encode())
	req := restRequest{Method: c.method(op), User: c.user(op), Key: c.key(ctx, op), Body: fingerprint(roles.Payload(op))}
	ctx.Send(c.Service, req.encode(envelope{Kind: MsgRest, Op: op, Attempt: attempt}))
	roles.ArmRetry(ctx, c.Timeout, op, attempt)
}

// Timer starts an operation or retries one still unanswered.
func (c *RestClient) Timer(ctx *sim.Context, t sim.Timer) {
	roles.OpTimer(ctx, restClientOps, t, c.send)
}

// Receive accepts an answer: an outcome, and for the first answer to a
// GET, the read shown to the user.
func (c *RestClient) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgRestResponse {
		return
	}
	resp := decodeHTTPResponse(m)
	resp.outcome(ctx, m.Op)
	r, ok := ctx.Get(restClientOps, int64(m.Op), m.Op)
	if ok && decodeOpRow(r).State == roles.OpPending && c.method(m.Op) == methodGet {
		ctx.Effect(SinkApplied, m.Op, resp.Result)
	}
	roles.FinishOp(ctx, restClientOps, m.Op)
}

// restMethods maps option method to the method of every operation (0:
// mixed).
var restMethods = map[string]int32{"get": methodGet, "put": methodPut, "delete": methodDelete, "post": methodPost, "patch": methodPatch}

// buildRestclient builds a rest-client node from its options, each declared where it is read.
func buildRestclient(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &RestClient{
		Service:  a.Node("service", "the rest-service it calls"),
		Interval: opInterval(a),
		Timeout:  retryTimeout(a),
		Method:   restMethods[a.Enum("method", "post", []string{"get", "put", "delete", "post", "patch", "mixed"}, "the method of every operation, or mixed: GET, PUT, DELETE, POST, PATCH in turn")],
		Users:    int64(a.Int("users", 1, 1, 99, "how many users share the operations, in turn")),
		Keys:     a.Enum("keys", "unique", []string{"unique", "user-counter", "omit-odd"}, "a POST's or PATCH's Idempotency-Key: one per operation, the user's payment count (collides across users), or none on every other operation"),
	}
	return c, []sim.TableSpec{{Name: "ops", AgeFree: true}}
}
