package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// The three steps of one order, in the order they run.
const (
	stepContract int32 = iota + 1
	stepEmail
	stepStock
	stepCount = stepStock
)

// OrderService handles POST /orders: one logical operation made of three
// steps, each a call to another service — create the contract, send the
// confirmation e-mail, update the stock — and each an effect on its own
// sink. It calls them one after the other, and answers 201 (with the
// contract id) when the last step is acknowledged.
//
// Under at-most-once it calls each step once; a step that is not
// acknowledged in time aborts the order (500), so later steps are skipped.
// Otherwise a step that is not acknowledged in time is called again, until
// it is. Under the idempotent semantics the endpoint follows the
// Idempotency-Key protocol (the key is persisted PROCESSING before the
// first step, COMPLETED with the response after the last; 409 while in
// flight, the stored response after). The order's progress through its
// steps is in-flight state, kept in memory; after a crash every order left
// PROCESSING is run again from its first step. What makes that safe is the
// lesson:
//
//   - PerStep false, "one key on the endpoint only": the step calls carry no
//     key, so a step repeated after a lost acknowledgement or a crash is
//     done twice;
//   - PerStep true, "a dedup key per step": every step call carries a key
//     derived from the order's key and the step (the same on every repeat),
//     and each step service keeps the keys it has done.
type OrderService struct {
	Client      sim.NodeID
	Steps       [stepCount]sim.NodeID // contract, e-mail, stock services
	StepTimeout sim.Time
	PerStep     bool
}

const (
	orderKeys sim.TableID = iota // the endpoint's (key, response) store
	orderRuns                    // run → progress (volatile: in-flight state)
	orderSeen                    // (op, attempt) seen: at-most-once transport dedup
)

// A run is one execution of an order: under the idempotent semantics its
// Idempotency-Key, otherwise one per request received: orderRun names the
// run of the request (op, attempt), a fresh id per request, the key of the
// runs table. Ranges: roles.TupleKey's, with roles.AttemptDigits for attempt.
// Its progress row is a runRow.
func orderRun(op sim.OpID, attempt int32) int64 {
	return roles.TupleKey(int64(op), int64(attempt), roles.AttemptDigits)
}

// stepDigits is the width, in decimal digits, of the step field of a
// step's dedup key: room for the three steps and a few more.
const stepDigits = 1

// orderStepKey derives a step's dedup key from the order's key, the same
// on every repeat of the step and different for every (order, step) pair
// (the step services' done tables are keyed by it). Ranges: orderKey in
// [0, roles.TupleHiMax(stepDigits)], step in [0, 9].
func orderStepKey(orderKey int64, step int32) idemKey {
	return idemKey(roles.TupleKey(orderKey, int64(step), stepDigits))
}

// Start runs again, from the first step, every order a crash left
// PROCESSING: its progress was in memory.
func (s *OrderService) Start(ctx *sim.Context) {
	if !roles.Idempotent(ctx.Semantics()) {
		return
	}
	keys := ctx.Rows(orderKeys)
	var pending []int64
	for i := 0; i < keys.Len(); i++ {
		if key, r := keys.At(i); decodeKeyRow(r).State == roles.KeyProcessing {
			pending = append(pending, key)
		}
	}
	for _, key := range pending {
		rec, _ := ctx.Get(orderKeys, key, 0)
		r := decodeKeyRow(rec)
		s.start(ctx, key, r.Op, r.Attempt)
	}
}

// Receive dispatches orders and step acknowledgements.
func (s *OrderService) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgOrder:
		s.order(ctx, m)
	case MsgStepAck:
		s.stepDone(ctx, m)
	}
}

func (s *OrderService) reply(ctx *sim.Context, op sim.OpID, attempt int32, resp httpResponse) {
	ctx.Send(s.Client, resp.encode(envelope{Kind: MsgOrderResponse, Op: op, Attempt: attempt}))
}

func (s *OrderService) order(ctx *sim.Context, m sim.Message) {
	switch ctx.Semantics() {
	case sim.AtMostOnce:
		seen := sendKey(m.Op, m.Attempt)
		if _, dup := ctx.Get(orderSeen, seen, m.Op); dup {
			return // a network copy of a request already taken
		}
		ctx.Put(orderSeen, seen, m.Op, sim.Record{})
		s.start(ctx, orderRun(m.Op, m.Attempt), m.Op, m.Attempt)
	case sim.AtLeastOnce:
		s.start(ctx, orderRun(m.Op, m.Attempt), m.Op, m.Attempt)
	default:
		s.orderIdempotent(ctx, m)
	}
}

func (s *OrderService) orderIdempotent(ctx *sim.Context, m sim.Message) {
	req := decodeHTTPRequest(m)
	lookup := func() (keyRow, bool) {
		r, ok := ctx.Get(orderKeys, int64(req.Key), m.Op)
		return decodeKeyRow(r), ok
	}
	if a, answered := (keyProtocol{completed: roles.KeyCompleted}).answer(req, lookup); answered {
		s.reply(ctx, m.Op, m.Attempt, a)
		return
	}
	// The key is persisted before the first step is called.
	ctx.Put(orderKeys, int64(req.Key), m.Op, keyRow{State: roles.KeyProcessing, Op: m.Op, Attempt: m.Attempt, Body: req.Body}.encode())
	s.start(ctx, int64(req.Key), m.Op, m.Attempt)
}

// start runs an order from its first step.
func (s *OrderService) start(ctx *sim.Context, run int64, op sim.OpID, attempt int32) {
	s.call(ctx, run, op, runRow{Step: stepContract, Attempt: attempt})
}

// call calls the run's current step (once more) and arms its deadline.
func (s *OrderService) call(ctx *sim.Context, run int64, op sim.OpID, r runRow) {
	r.Calls++
	ctx.Put(orderRuns, run, op, r.encode())
	var key idemKey
	if s.PerStep && roles.Idempotent(ctx.Semantics()) {
		key = orderStepKey(run, r.Step)
	}
	ctx.Send(s.Steps[r.Step-1], stepCall{Key: key, Run: run, Step: r.Step}.encode(envelope{Kind: MsgStep, Op: op, Attempt: r.Calls}))
	ctx.After(s.StepTimeout, stepDeadline{Run: run, Step: r.Step, Call: r.Calls}.timer(op))
}

// expired reports whether deadline d is for the call run row r is still
// waiting on: a deadline whose call has been answered, or called again,
// finds another step or call in the row.
func (d stepDeadline) expired(r runRow) bool { return d.Step == r.Step && d.Call == r.Calls }

// stepDone moves a run past an acknowledged step.
func (s *OrderService) stepDone(ctx *sim.Context, m sim.Message) {
	ack := decodeStepCall(m)
	rec, ok := ctx.Get(orderRuns, ack.Run, m.Op)
	r := decodeRunRow(rec)
	if !ok || r.Step != ack.Step {
		return // a repeated step's second acknowledgement
	}
	if ack.Step == stepContract {
		r.Contract = ack.RecordID
	}
	if ctx.CrashPoint(PointBetweenSteps, &m) {
		return
	}
	if ack.Step < stepCount {
		r.Step, r.Calls = ack.Step+1, 0
		s.call(ctx, ack.Run, m.Op, r)
		return
	}
	ctx.Delete(orderRuns, ack.Run, m.Op)
	if roles.Idempotent(ctx.Semantics()) {
		k, _ := ctx.Get(orderKeys, ack.Run, m.Op)
		done := keyRow{State: roles.KeyCompleted, Status: roles.StatusCreated, Response: r.Contract, Body: decodeKeyRow(k).Body}
		ctx.Put(orderKeys, ack.Run, m.Op, done.encode())
	}
	s.reply(ctx, m.Op, r.Attempt, httpResponse{Status: roles.StatusCreated, Result: r.Contract})
}

// Timer handles a step's deadline: call it again, or (at-most-once) give
// the order up.
func (s *OrderService) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerStepTimeout {
		return
	}
	d := decodeStepDeadline(t)
	rec, ok := ctx.Get(orderRuns, d.Run, t.Op)
	r := decodeRunRow(rec)
	if !ok || !d.expired(r) {
		return // the step was acknowledged in time
	}
	if ctx.Semantics() == sim.AtMostOnce {
		ctx.Delete(orderRuns, d.Run, t.Op)
		s.reply(ctx, t.Op, r.Attempt, httpResponse{Status: roles.StatusServerError})
		return
	}
	s.call(ctx, d.Run, t.Op, r)
}

// buildOrderservice builds a order-service node from its options, each declared where it is read.
func buildOrderservice(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &OrderService{
		Client: responsesTo(a),
		Steps: [stepCount]sim.NodeID{
			a.Node("contracts", "step 1: the contract service"),
			a.Node("emails", "step 2: the e-mail service"),
			a.Node("stock", "step 3: the stock service"),
		},
		StepTimeout: a.Duration("step-timeout", "200ms", "how long it waits for a step's acknowledgement"),
		PerStep:     a.Enum("dedup", "endpoint", []string{"endpoint", "per-step"}, "one key on the endpoint only, or also a dedup key per step") == "per-step",
	}
	return s, []sim.TableSpec{
		roles.StoreTable("keys", true, roles.KeyStates),
		{Name: "runs"},
		{Name: "seen", Durable: true},
	}
}
