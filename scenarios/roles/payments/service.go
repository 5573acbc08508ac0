package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// PaymentService handles POST /payments by charging the card at the
// gateway.
//
// Under at-most-once and at-least-once it is the naive endpoint: every
// request it handles is a new charge (at-most-once additionally suppresses
// transport-level duplicates of one message, as TCP would).
//
// Under the idempotent semantics it follows the lesson's protocol, in this
// order: look the key up; if absent, persist it as PROCESSING *before* the
// gateway is called, passing the same key to the gateway; store the
// response when the charge returns, *then* reply. A retry of a completed
// key gets the byte-identical stored response; a key still in flight gets
// 409; the same key with another payload 422; no key 400. After a crash,
// every key left PROCESSING is resolved by asking the gateway by that key —
// never by charging again blindly.
//
// The bugs the catalog teaches are switches: MarkAfter ("check, call,
// mark": no PROCESSING row, the key is written only after the charge), TTL
// (entries older than TTL are forgotten), a volatile key table
// (store=memory) chosen by the NodeSpec, and Reuse (what a
// known key with another body gets: "reject" answers 422, "replay" answers
// the stored response because the body is not fingerprinted, "overwrite"
// charges the new body and replaces the stored result).
//
// With a TTL, a retry that comes after its key was forgotten looks like a
// new payment. FailClosed (option on-expired) refuses it instead: the
// service accepts a key only while it is younger than the TTL — its age
// read from the key itself, which must be time-ordered (a UUIDv7; the
// client's key=time-ordered) — and answers a new request with an older
// key 422 (the key expired: the client must find out what became of the
// payment before it pays again). A row outlives the window its key is
// accepted in (it was written after the key was made), so every accepted
// retry still finds its row. A key with no time in it is answered 400:
// the service cannot tell its age.
type PaymentService struct {
	Client     sim.NodeID
	Gateway    sim.NodeID
	MarkAfter  bool
	TTL        sim.Time // 0 = keys never expire
	Reuse      string   // reject (default) | replay | overwrite
	FailClosed bool     // refuse a key older than TTL (422) instead of processing it as new
	// durableKeys says that the key store survives a crash (store:
	// durable); read only by OpSymmetric (symmetry.go).
	durableKeys bool
}

const (
	serviceKeys sim.TableID = iota // the (key, response) store
	serviceSeen                    // (op, attempt) pairs seen: at-most-once transport dedup
)

// Start resolves keys a crash left in PROCESSING by asking the gateway.
func (s *PaymentService) Start(ctx *sim.Context) {
	if !roles.Idempotent(ctx.Semantics()) {
		return
	}
	keys := ctx.Rows(serviceKeys)
	for i := 0; i < keys.Len(); i++ {
		key, rec := keys.At(i)
		if r := decodeKeyRow(rec); r.State == roles.KeyProcessing {
			ctx.Send(s.Gateway, providerCall{Key: idemKey(key), Body: r.Body}.encode(envelope{Kind: MsgLookup, Op: r.Op}))
		}
	}
}

// Timer is unused.
func (s *PaymentService) Timer(*sim.Context, sim.Timer) {}

// Receive dispatches requests and gateway answers.
func (s *PaymentService) Receive(ctx *sim.Context, m sim.Message) {
	idem := roles.Idempotent(ctx.Semantics())
	switch {
	case m.Kind == MsgPayRequest && idem:
		s.handleIdempotent(ctx, m, decodeHTTPRequest(m))
	case m.Kind == MsgPayRequest:
		if ctx.Semantics() == sim.AtMostOnce {
			// The transport's duplicate suppression: one (op, attempt) is one
			// request; a network copy of it is dropped, as TCP would.
			seen := sendKey(m.Op, m.Attempt)
			if _, dup := ctx.Get(serviceSeen, seen, m.Op); dup {
				return
			}
			ctx.Put(serviceSeen, seen, m.Op, sim.Record{})
		}
		req := decodeHTTPRequest(m)
		ctx.Send(s.Gateway, providerCall{Body: req.Body}.encode(envelope{Kind: MsgCharge, Op: m.Op, Attempt: m.Attempt}))
	case m.Kind == MsgChargeResult && idem:
		s.completeIdempotent(ctx, m, true)
	case m.Kind == MsgChargeResult:
		if ctx.CrashPoint(PointAfterCharge, &m) {
			return
		}
		s.reply(ctx, m.Op, m.Attempt, httpResponse{Status: roles.StatusCreated, Result: decodeProviderCall(m).TxnID})
	case m.Kind == MsgLookupResult:
		s.resolveLookup(ctx, m)
	}
}

func (s *PaymentService) reply(ctx *sim.Context, op sim.OpID, attempt int32, resp httpResponse) {
	ctx.Send(s.Client, resp.encode(envelope{Kind: MsgPayResponse, Op: op, Attempt: attempt}))
}

func (s *PaymentService) handleIdempotent(ctx *sim.Context, m sim.Message, req httpRequest) {
	protocol := keyProtocol{completed: roles.KeyCompleted, noFingerprint: s.Reuse == "replay"}
	lookup := func() (keyRow, bool) {
		rec, ok := ctx.Get(serviceKeys, int64(req.Key), m.Op)
		r := decodeKeyRow(rec)
		if ok && s.TTL > 0 && ctx.Now()-r.At >= s.TTL {
			ctx.Expire(serviceKeys, int64(req.Key), m.Op) // the key is forgotten
			ok = false
		}
		return r, ok && !s.processAgain(r, req)
	}
	if a, answered := protocol.answer(req, lookup); answered {
		s.reply(ctx, m.Op, m.Attempt, a)
		return
	}
	if status := s.refuseExpired(ctx, req); status != 0 {
		s.reply(ctx, m.Op, m.Attempt, httpResponse{Status: status})
		return
	}
	if !s.MarkAfter {
		ctx.Put(serviceKeys, int64(req.Key), m.Op, keyRow{State: roles.KeyProcessing, Body: req.Body, Op: m.Op}.encode())
		if ctx.CrashPoint(PointAfterLock, &m) {
			return
		}
	}
	ctx.Send(s.Gateway, providerCall{Key: req.Key, Body: req.Body}.encode(envelope{Kind: MsgCharge, Op: m.Op, Attempt: m.Attempt}))
}

// refuseExpired is the status a fail-closed service answers a new request
// with whose key it must not process (0: process it): 422 when the key is
// older than the TTL, 400 when the key carries no time.
func (s *PaymentService) refuseExpired(ctx *sim.Context, req httpRequest) int32 {
	if !s.FailClosed || s.TTL == 0 {
		return 0
	}
	made, ok := keyMadeAt(req.Key)
	switch {
	case !ok:
		return roles.StatusBadRequest
	case ctx.Now()-made >= s.TTL:
		return roles.StatusUnprocessable
	}
	return 0
}

// processAgain reports whether a request whose key is already stored is
// nevertheless charged: only under the Reuse=overwrite bug. (A key still
// PROCESSING always answers 409; the race of two requests on one key is
// concurrent-same-key's, over a key store of its own: checkedservice.go.)
func (s *PaymentService) processAgain(r keyRow, req httpRequest) bool {
	if r.Body != req.Body {
		return s.Reuse == "overwrite"
	}
	return false
}

// completeIdempotent stores the gateway's answer under the key, then
// replies (when a client attempt is waiting for it).
func (s *PaymentService) completeIdempotent(ctx *sim.Context, m sim.Message, reply bool) {
	if ctx.CrashPoint(PointAfterCharge, &m) {
		return
	}
	res := decodeProviderCall(m)
	rec, ok := ctx.Get(serviceKeys, int64(res.Key), m.Op)
	r := decodeKeyRow(rec)
	if !ok || r.State == roles.KeyProcessing || (s.Reuse == "overwrite" && r.Body != res.Body) {
		r = keyRow{State: roles.KeyCompleted, Status: roles.StatusCreated, Response: res.TxnID, Body: res.Body, At: r.At}
		ctx.Put(serviceKeys, int64(res.Key), m.Op, r.encode())
	}
	if ctx.CrashPoint(PointAfterStore, &m) {
		return
	}
	if reply {
		s.reply(ctx, m.Op, m.Attempt, httpResponse{Status: r.Status, Result: r.Response})
	}
}

// resolveLookup finishes recovery of a key left PROCESSING by a crash.
func (s *PaymentService) resolveLookup(ctx *sim.Context, m sim.Message) {
	res := decodeProviderCall(m)
	rec, ok := ctx.Get(serviceKeys, int64(res.Key), m.Op)
	if !ok || decodeKeyRow(rec).State != roles.KeyProcessing {
		return // already resolved by a late charge result
	}
	switch res.Status {
	case roles.StatusOK: // the charge happened: record it, charge nothing
		s.completeIdempotent(ctx, m, false)
	default: // not found (or no lookup support): the charge never happened
		ctx.Send(s.Gateway, providerCall{Key: res.Key, Body: res.Body}.encode(envelope{Kind: MsgCharge, Op: m.Op}))
	}
}

// buildService builds a payment-service node from its options, each declared where it is read.
func buildService(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &PaymentService{
		Client:  responsesTo(a),
		Gateway: cardGateway(a),
	}
	s.durableKeys = durableKeys(a)
	s.MarkAfter = a.Enum("mark", "before", []string{"before", "after"}, "key written before the charge (PROCESSING), or after it") == "after"
	s.TTL = a.Duration("ttl", "0", "how long a key is remembered (0 = forever)")
	s.Reuse = a.Enum("reuse", "reject", []string{"reject", "replay", "overwrite"},
		"a known key with another body: 422, the stored response (no fingerprint), or processed and overwritten")
	s.FailClosed = a.Enum("on-expired", "fail-open", []string{"fail-open", "fail-closed"}, "a new request whose key is older than ttl: processed as a new payment (fail open), or refused 422 (fail closed; needs time-ordered keys)") == "fail-closed"
	keys := roles.StoreTable("keys", s.durableKeys, roles.KeyStates)
	keys.AgeFree = s.TTL == 0 // a key's age is read only to expire it
	return s, []sim.TableSpec{keys, {Name: "seen", Durable: true, AgeFree: true}}
}
