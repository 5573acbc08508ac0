package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Intent states of IntentService's key table. UNKNOWN is the state the
// lesson names: the provider was called, no answer came back, and nobody
// knows whether the card was charged.
const (
	intentProcessing int32 = iota + 1
	intentCompleted
	intentUnknown
)

var intentStates = []string{"", "PROCESSING", "COMPLETED", "UNKNOWN"}

// IntentService handles POST /payments by charging a provider that may
// time out after it has charged.
//
// Under the idempotent semantics, in this order: the intent is persisted
// (key PROCESSING, with the body) before the provider is called with the
// key; the call has a deadline (CallTimeout). A result stores the response
// (COMPLETED) and answers the waiting request; a retry of a completed key
// gets the stored response, a key not yet completed gets 409. When the
// deadline passes without a result, the outcome is unknown, and what the
// service does next is the lesson:
//
//   - "reconcile": mark the intent UNKNOWN and hand the key to the
//     reconciler, which asks the provider by that same key; "charged"
//     completes the intent with the provider's transaction, "not found"
//     charges again with the same key. One charge, one stable result.
//   - "retry-new-key": treat the timeout as a failure and charge again at
//     once under a fresh provider key (the blind retry): when the first
//     charge did happen, the card is charged twice.
//
// A late result (after the deadline) completes the intent too. After a
// crash, every intent left PROCESSING is unknown and goes to the
// reconciler. Under at-most-once and at-least-once it is the naive
// endpoint: every request is a charge without a key.
type IntentService struct {
	Client      sim.NodeID
	Provider    sim.NodeID
	Reconciler  sim.NodeID
	CallTimeout sim.Time
	NewKey      bool // on-timeout: retry-new-key (the bug)
}

const (
	intentKeys       sim.TableID = iota // key → intent and, once completed, the response
	intentCalls                         // key → callsRow: provider calls so far and the waiting client attempt
	intentRefs                          // provider reference → refRow: the intent it was issued for (retry-new-key)
	intentRefCounter                    // row 0: counterRow, the last provider reference issued (retry-new-key)
)

// providerRefBase keeps the provider references the service issues apart
// from client keys, so a trace tells one from the other.
const providerRefBase idemKey = 7_000_000_000

// providerRef returns the merchant reference of the next provider call for
// the intent under key. Reconciling, it is the intent's key itself, so the
// reconciler can ask the provider by it. Retrying under a new key, it is a
// fresh reference from a durable counter, written down with the intent it
// belongs to (as a real service keeps the references it issued): the
// provider's answer echoes only the reference, and intentOf finds the
// intent from it. Nothing is packed into the reference.
func (s *IntentService) providerRef(ctx *sim.Context, key idemKey, op sim.OpID) idemKey {
	if !s.NewKey {
		return key
	}
	rec, _ := ctx.Get(intentRefCounter, 0, op)
	c := decodeCounterRow(rec)
	c.Last = max(c.Last, int64(providerRefBase)) + 1
	ctx.Put(intentRefCounter, 0, op, c.encode())
	ref := idemKey(c.Last)
	ctx.Put(intentRefs, int64(ref), op, refRow{Intent: key}.encode())
	return ref
}

// intentOf returns the key of the intent that provider reference ref was
// issued for; false for a reference this service never issued.
func (s *IntentService) intentOf(ctx *sim.Context, ref idemKey, op sim.OpID) (idemKey, bool) {
	if !s.NewKey {
		return ref, true
	}
	r, ok := ctx.Get(intentRefs, int64(ref), op)
	return decodeRefRow(r).Intent, ok
}

// Start hands every intent a crash left PROCESSING to the reconciler: its
// charge may or may not have happened.
func (s *IntentService) Start(ctx *sim.Context) {
	if !roles.Idempotent(ctx.Semantics()) {
		return
	}
	keys := ctx.Rows(intentKeys)
	var pending []int64
	for i := 0; i < keys.Len(); i++ {
		if key, r := keys.At(i); decodeKeyRow(r).State == intentProcessing {
			pending = append(pending, key)
		}
	}
	for _, key := range pending { // Put below must not run while iterating
		r, _ := ctx.Get(intentKeys, key, 0)
		s.markUnknown(ctx, idemKey(key), decodeKeyRow(r))
	}
}

// Receive dispatches requests, provider results and reconciliations.
func (s *IntentService) Receive(ctx *sim.Context, m sim.Message) {
	idem := roles.Idempotent(ctx.Semantics())
	switch {
	case m.Kind == MsgPayRequest && idem:
		s.request(ctx, m)
	case m.Kind == MsgPayRequest:
		ctx.Send(s.Provider, providerCall{Body: decodeHTTPRequest(m).Body}.encode(envelope{Kind: MsgCharge, Op: m.Op, Attempt: m.Attempt}))
	case m.Kind == MsgChargeResult && idem:
		s.result(ctx, m)
	case m.Kind == MsgChargeResult:
		s.reply(ctx, m.Op, m.Attempt, httpResponse{Status: roles.StatusCreated, Result: decodeProviderCall(m).TxnID})
	case m.Kind == MsgResolved && idem:
		s.resolved(ctx, m)
	}
}

func (s *IntentService) reply(ctx *sim.Context, op sim.OpID, attempt int32, resp httpResponse) {
	ctx.Send(s.Client, resp.encode(envelope{Kind: MsgPayResponse, Op: op, Attempt: attempt}))
}

func (s *IntentService) request(ctx *sim.Context, m sim.Message) {
	// A key PROCESSING or UNKNOWN is not decided yet: 409.
	req := decodeHTTPRequest(m)
	lookup := func() (keyRow, bool) {
		r, ok := ctx.Get(intentKeys, int64(req.Key), m.Op)
		return decodeKeyRow(r), ok
	}
	if a, answered := (keyProtocol{completed: intentCompleted}).answer(req, lookup); answered {
		s.reply(ctx, m.Op, m.Attempt, a)
		return
	}
	ctx.Put(intentKeys, int64(req.Key), m.Op, keyRow{State: intentProcessing, Op: m.Op, Body: req.Body}.encode())
	ctx.Put(intentCalls, int64(req.Key), m.Op, callsRow{ClientAttempt: m.Attempt}.encode())
	s.charge(ctx, req.Key, m.Op, req.Body)
}

// charge calls the provider once more for the intent under key and arms
// the call's deadline.
func (s *IntentService) charge(ctx *sim.Context, key idemKey, op sim.OpID, body fingerprint) {
	rec, _ := ctx.Get(intentCalls, int64(key), op)
	c := decodeCallsRow(rec)
	c.Calls++
	ctx.Put(intentCalls, int64(key), op, c.encode())
	ctx.Send(s.Provider, providerCall{Key: s.providerRef(ctx, key, op), Body: body}.encode(envelope{Kind: MsgCharge, Op: op, Attempt: c.Calls}))
	ctx.After(s.CallTimeout, sim.Timer{Kind: TimerCallTimeout, Op: op, Attempt: c.Calls, Key: int64(key)})
}

// result completes the intent with the provider's answer, on time or late.
func (s *IntentService) result(ctx *sim.Context, m sim.Message) {
	res := decodeProviderCall(m)
	key, issued := s.intentOf(ctx, res.Key, m.Op)
	if !issued {
		return // not an answer to a call of this service
	}
	rec, ok := ctx.Get(intentKeys, int64(key), m.Op)
	r := decodeKeyRow(rec)
	if !ok || r.State == intentCompleted {
		return // a second charge's answer: the first one is the result
	}
	waiting := r.State == intentProcessing
	ctx.Put(intentKeys, int64(key), m.Op, keyRow{State: intentCompleted, Status: roles.StatusCreated, Response: res.TxnID, Body: r.Body}.encode())
	if waiting { // the request that started the call still waits for it
		c, _ := ctx.Get(intentCalls, int64(key), m.Op)
		s.reply(ctx, m.Op, decodeCallsRow(c).ClientAttempt, httpResponse{Status: roles.StatusCreated, Result: res.TxnID})
	}
}

// Timer handles a call's deadline.
func (s *IntentService) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerCallTimeout {
		return
	}
	key := idemKey(t.Key)
	rec, ok := ctx.Get(intentKeys, t.Key, t.Op)
	c, _ := ctx.Get(intentCalls, t.Key, t.Op)
	r := decodeKeyRow(rec)
	if !ok || r.State != intentProcessing || decodeCallsRow(c).Calls != t.Attempt {
		return // answered in time, or an older call's deadline
	}
	if s.NewKey {
		s.charge(ctx, key, t.Op, r.Body) // the blind retry
		return
	}
	s.markUnknown(ctx, key, r)
}

// markUnknown records that the intent's outcome is unknown, then hands it
// to the reconciler.
func (s *IntentService) markUnknown(ctx *sim.Context, key idemKey, r keyRow) {
	r.State, r.At = intentUnknown, 0
	ctx.Put(intentKeys, int64(key), r.Op, r.encode())
	ctx.Send(s.Reconciler, outcomeReport{Key: key, Body: r.Body}.encode(envelope{Kind: MsgUnknown, Op: r.Op}))
}

// resolved applies the reconciler's finding to an UNKNOWN intent: charged
// (complete it with that transaction), not found (charge again, same key),
// or undecidable (a provider without lookups: it stays UNKNOWN for a human).
func (s *IntentService) resolved(ctx *sim.Context, m sim.Message) {
	res := decodeOutcomeReport(m)
	rec, ok := ctx.Get(intentKeys, int64(res.Key), m.Op)
	r := decodeKeyRow(rec)
	if !ok || r.State != intentUnknown {
		return // a late result got there first
	}
	switch res.Status {
	case roles.StatusOK:
		ctx.Put(intentKeys, int64(res.Key), m.Op, keyRow{State: intentCompleted, Status: roles.StatusCreated, Response: res.TxnID, Body: r.Body}.encode())
	case roles.StatusNotFound:
		r.State, r.At = intentProcessing, 0
		ctx.Put(intentKeys, int64(res.Key), m.Op, r.encode())
		s.charge(ctx, res.Key, m.Op, r.Body)
	}
}

// buildIntentservice builds a intent-service node from its options, each declared where it is read.
func buildIntentservice(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &IntentService{
		Client:      responsesTo(a),
		Provider:    a.Node("provider", "the card provider (card-gateway)"),
		Reconciler:  a.Node("reconciler", "the reconciler that resolves unknown outcomes"),
		CallTimeout: a.Duration("call-timeout", "300ms", "how long it waits for the provider before the outcome is unknown"),
		NewKey:      a.Enum("on-timeout", "reconcile", []string{"reconcile", "retry-new-key"}, "hand the key to the reconciler, or charge again at once under a new key (the bug)") == "retry-new-key",
	}
	return s, []sim.TableSpec{roles.StoreTable("keys", true, intentStates), {Name: "calls", Durable: true},
		{Name: "refs", Durable: true}, {Name: "ref-counter", Durable: true}}
}
