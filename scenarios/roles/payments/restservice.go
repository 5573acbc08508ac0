package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// RestService is a resource endpoint with the four HTTP methods, each
// doing what its method promises (RFC 9110 §9.2):
//
//   - GET /resources/{op} reads the resource: safe, it changes nothing;
//   - PUT /resources/{op} sets the resource to the body: idempotent, a
//     second PUT of the same body finds the value already set and changes
//     nothing (a change is an effect on applied);
//   - DELETE /resources/{op} removes it: idempotent, a second DELETE finds
//     nothing and answers 404, changing nothing;
//   - PATCH /resources/{op} adds one to the resource ({"op": "increment"}):
//     neither safe nor idempotent, every PATCH it handles is a change;
//   - POST /payments creates a payment: neither safe nor idempotent, every
//     POST it handles is a new charge on card-charges, unless the request
//     carries an Idempotency-Key (idempotent semantics): then the answer
//     is stored under the key, with the charge, in one local transaction,
//     and a retry is answered from the store. A PATCH with a key is
//     handled the same way.
//
// Resources 1..ops exist with value 1 when the service first starts. The
// service does not fingerprint bodies (key reuse with another body is its
// own lesson). The bugs the catalog teaches are implementations, each a
// code path chosen by an option: a PUT that increments, a POST without a key
// that is processed instead of refused with 400, keys stored globally
// instead of per user, and a retry answered by rendering the response
// again instead of replaying the stored one.
type RestService struct {
	PutIncrements  bool // PUT adds one instead of setting the body
	AcceptKeyless  bool // a POST without a key is processed, not answered 400
	GlobalKeys     bool // keys are stored by key alone, not by (user, key)
	RecomputeReply bool // a known key's answer is rendered again, not replayed
	// ResourceReply stores only the payment's id under the key, and
	// rebuilds a known key's answer from the payment resource, which keeps
	// the fields it was created with (its row in resources, at
	// paymentResourceKey): the same bytes, without the body in the store.
	ResourceReply bool
}

// paymentResourceKey is the resources row of the payment with
// transaction id txn (apart from the seeded resources 1..ops).
func paymentResourceKey(txn int64) int64 { return 1_000_000 + txn }

// statusNoContent is DELETE's answer: done, nothing to show.
const statusNoContent = 204

const (
	restResources sim.TableID = iota // resource id → resourceRow
	restKeys                         // scoped key → restKeyRow
	restCounter                      // row 0: restCounters
	restSeen                         // (op, attempt): at-most-once transport dedup
)

// Start seeds resources 1..ops on the first boot (the counters row says
// whether it happened: both tables are durable).
func (s *RestService) Start(ctx *sim.Context) {
	rec, _ := ctx.Get(restCounter, 0, 0)
	c := decodeRestCounters(rec)
	if c.Seeded {
		return
	}
	for op := 1; op <= ctx.Ops(); op++ {
		ctx.Put(restResources, int64(op), sim.OpID(op), resourceRow{Exists: true, Value: 1}.encode())
	}
	c.Seeded, c.LastTxn = true, 8820 // the lesson's transaction 8821 is the first one
	ctx.Put(restCounter, 0, 0, c.encode())
}

// Timer is unused.
func (s *RestService) Timer(*sim.Context, sim.Timer) {}

// Receive handles one request and answers its sender. Every write of a request
// and its answer's stored copy happen before the answer is sent.
func (s *RestService) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgRest {
		return
	}
	if ctx.Semantics() == sim.AtMostOnce && transportSeen(ctx, restSeen, m) {
		return
	}
	req := decodeRestRequest(m)
	var resp httpResponse
	switch req.Method {
	case methodGet:
		resp = s.get(ctx, m.Op)
	case methodPut:
		resp = s.put(ctx, m.Op, req)
	case methodDelete:
		resp = s.delete(ctx, m.Op)
	case methodPatch:
		resp = s.keyed(ctx, m.Op, req, false, func() httpResponse { return s.patch(ctx, m.Op) })
	default:
		resp = s.keyed(ctx, m.Op, req, true, func() httpResponse { return s.charge(ctx, m.Op) })
	}
	if ctx.CrashPoint(PointAfterStore, &m) {
		return
	}
	ctx.Send(m.From, resp.encode(envelope{Kind: MsgRestResponse, Op: m.Op, Attempt: m.Attempt}))
}

// transportSeen is the transport's duplicate suppression under
// at-most-once: one (op, attempt) is one request, a network copy of it is
// dropped, as TCP would.
func transportSeen(ctx *sim.Context, table sim.TableID, m sim.Message) bool {
	seen := sendKey(m.Op, m.Attempt)
	if _, dup := ctx.Get(table, seen, m.Op); dup {
		return true
	}
	ctx.Put(table, seen, m.Op, sim.Record{})
	return false
}

func (s *RestService) get(ctx *sim.Context, op sim.OpID) httpResponse {
	rec, ok := ctx.Get(restResources, int64(op), op)
	r := decodeResourceRow(rec)
	if !ok || !r.Exists {
		return httpResponse{Status: roles.StatusNotFound}
	}
	return httpResponse{Status: roles.StatusOK, Result: r.Value}
}

func (s *RestService) put(ctx *sim.Context, op sim.OpID, req restRequest) httpResponse {
	rec, _ := ctx.Get(restResources, int64(op), op)
	r := decodeResourceRow(rec)
	next := int64(req.Body)
	if s.PutIncrements {
		next = r.Value + 1
	}
	if !r.Exists || r.Value != next {
		r = resourceRow{Exists: true, Value: next}
		ctx.Put(restResources, int64(op), op, r.encode())
		ctx.Effect(SinkApplied, op, next)
	}
	return httpResponse{Status: roles.StatusOK, Result: next}
}

func (s *RestService) delete(ctx *sim.Context, op sim.OpID) httpResponse {
	rec, ok := ctx.Get(restResources, int64(op), op)
	if !ok || !decodeResourceRow(rec).Exists {
		return httpResponse{Status: roles.StatusNotFound}
	}
	ctx.Delete(restResources, int64(op), op)
	ctx.Effect(SinkApplied, op, 0)
	return httpResponse{Status: statusNoContent}
}

// patch adds one to resource op: a change every time.
func (s *RestService) patch(ctx *sim.Context, op sim.OpID) httpResponse {
	rec, ok := ctx.Get(restResources, int64(op), op)
	r := decodeResourceRow(rec)
	if !ok || !r.Exists {
		return httpResponse{Status: roles.StatusNotFound}
	}
	r.Value++
	ctx.Put(restResources, int64(op), op, r.encode())
	ctx.Effect(SinkApplied, op, r.Value)
	return httpResponse{Status: roles.StatusOK, Result: r.Value}
}

// keyed runs do — a POST's charge or a PATCH — under the Idempotency-Key
// protocol when the semantics is idempotent: the key is looked up first,
// and the change and the stored answer are one local transaction (both
// written before the answer leaves). isReceipt says the answer is a
// payment's receipt, which the recompute bug renders again.
func (s *RestService) keyed(ctx *sim.Context, op sim.OpID, req restRequest, isReceipt bool, do func() httpResponse) httpResponse {
	if !roles.Idempotent(ctx.Semantics()) {
		return do()
	}
	if req.Key == 0 && !s.AcceptKeyless {
		return httpResponse{Status: roles.StatusBadRequest} // no key: refused, nothing done
	}
	if req.Key == 0 {
		return do() // the bug: a keyless request is processed like a plain one
	}
	key := restKeyScope(req.User, req.Key, !s.GlobalKeys)
	if rec, known := ctx.Get(restKeys, key, op); known {
		stored := decodeRestKeyRow(rec)
		if s.RecomputeReply && isReceipt { // rendered again: the balance it shows is today's
			return httpResponse{Status: stored.Status, Result: receipt(stored.Txn, s.counters(ctx).Payments)}
		}
		if s.ResourceReply && isReceipt { // rebuilt from the payment as it was created
			p, _ := ctx.Get(restResources, paymentResourceKey(stored.Txn), op)
			return httpResponse{Status: stored.Status, Result: decodeResourceRow(p).Value}
		}
		return httpResponse{Status: stored.Status, Result: stored.Receipt}
	}
	resp := do()
	if s.ResourceReply && isReceipt {
		// The payment resource keeps its fields; the key keeps its id only.
		txn := receiptTxn(resp.Result)
		ctx.Put(restResources, paymentResourceKey(txn), op, resourceRow{Exists: true, Value: resp.Result}.encode())
		ctx.Put(restKeys, key, op, restKeyRow{Status: resp.Status, Txn: txn}.encode())
		return resp
	}
	ctx.Put(restKeys, key, op, restKeyRow{Status: resp.Status, Receipt: resp.Result, Txn: receiptTxn(resp.Result)}.encode())
	return resp
}

func (s *RestService) counters(ctx *sim.Context) restCounters {
	rec, _ := ctx.Get(restCounter, 0, 0)
	return decodeRestCounters(rec)
}

// charge makes one payment: a new transaction on card-charges, answered
// 201 with its receipt.
func (s *RestService) charge(ctx *sim.Context, op sim.OpID) httpResponse {
	c := s.counters(ctx)
	c.LastTxn++
	c.Payments++
	ctx.Put(restCounter, 0, 0, c.encode())
	ctx.Effect(SinkCardCharges, op, c.LastTxn)
	ctx.Effect(SinkApplied, op, c.LastTxn) // the payment resource it created
	return httpResponse{Status: roles.StatusCreated, Result: receipt(c.LastTxn, c.Payments)}
}

// buildRestservice builds a rest-service node from its options, each declared where it is read.
func buildRestservice(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &RestService{
		PutIncrements: a.Enum("put", "set", []string{"set", "increment"}, "PUT sets the resource to the body, or adds one to it: the non-idempotent PUT") == "increment",
		AcceptKeyless: a.Enum("missing-key", "reject", []string{"reject", "accept"}, "a POST without Idempotency-Key (idempotent semantics): 400, or processed anyway") == "accept",
		GlobalKeys:    a.Enum("key-scope", "user", []string{"user", "global"}, "keys stored per (user, key), or by the key alone") == "global",
	}
	replay := a.Enum("replay", "stored", []string{"stored", "recompute", "resource"},
		"a retry of a known key gets the stored response, one rendered again from today's state, or one rebuilt from the payment resource whose id alone the key stores")
	s.RecomputeReply, s.ResourceReply = replay == "recompute", replay == "resource"
	durable := durableKeys(a)
	return s, []sim.TableSpec{
		{Name: "resources", Durable: true, Traced: true, States: []string{"", "EXISTS"}},
		roles.StoreTable("keys", durable, roles.KeyStates),
		{Name: "counters", Durable: true},
		{Name: "seen", Durable: true},
	}
}
