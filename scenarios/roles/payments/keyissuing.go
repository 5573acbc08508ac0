package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// KeyIssuingService is a payment service whose idempotency keys are born
// on the server: a POST without a key is a new payment, for which it issues
// a key, persists it as PROCESSING, calls the gateway, and only then
// answers 202 Accepted carrying the key. The client asks again with that
// key for the result (409 while in flight, the stored 201 after).
//
// The flaw is structural: the first request of every payment carries no
// key, so nothing can recognise its retry. If the 202 is lost, the client
// can only send another keyless POST, which is another payment. Requests
// that do carry a key (the client-generated fix) follow PaymentService's
// protocol unchanged.
type KeyIssuingService struct {
	PaymentService
}

const issuedCounter sim.TableID = 2 // row 0: keys issued so far (after keys and seen)

// issuedKeyBase keeps server-issued keys apart from every client key.
const issuedKeyBase idemKey = 9_000_000_000

// Receive issues a key to a keyless payment; everything else is the
// payment service's.
func (s *KeyIssuingService) Receive(ctx *sim.Context, m sim.Message) {
	if !roles.Idempotent(ctx.Semantics()) {
		s.PaymentService.Receive(ctx, m)
		return
	}
	switch {
	case m.Kind == MsgPayRequest && decodeHTTPRequest(m).Key == 0:
		req := decodeHTTPRequest(m)
		req.Key = s.issue(ctx, m.Op)
		// Intent first: the key is PROCESSING and the charge is on its way
		// before the 202 leaves (a crash in between sends no 202).
		s.handleIdempotent(ctx, req.onto(m), req)
		s.reply(ctx, m.Op, m.Attempt, httpResponse{Status: roles.StatusAccepted, IssuedKey: req.Key})
	case m.Kind == MsgChargeResult && decodeProviderCall(m).Key >= issuedKeyBase:
		// The keyless request was already answered (202): store the
		// result for the client's next ask.
		s.completeIdempotent(ctx, m, false)
	default:
		s.PaymentService.Receive(ctx, m)
	}
}

// issue draws the next key from a durable counter.
func (s *KeyIssuingService) issue(ctx *sim.Context, op sim.OpID) idemKey {
	rec, _ := ctx.Get(issuedCounter, 0, op)
	c := decodeCounterRow(rec)
	c.Last++
	ctx.Put(issuedCounter, 0, op, c.encode())
	return issuedKeyBase + idemKey(c.Last)
}

// buildKeyissuing builds a key-issuing-service node from its options, each declared where it is read.
func buildKeyissuing(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &KeyIssuingService{PaymentService: PaymentService{
		Client:  responsesTo(a),
		Gateway: cardGateway(a),
	}}
	durable := durableKeys(a)
	return s, []sim.TableSpec{
		roles.StoreTable("keys", durable, roles.KeyStates), {Name: "seen", Durable: true},
		{Name: "issued", Durable: true},
	}
}
