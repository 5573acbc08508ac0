package live

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// The rest-client and rest-service of key-scoped-to-user, live. The
// simulator's rest-service charges in its own local transaction (no
// gateway hop): the live one inserts the charge and the stored answer in
// one SQL transaction, into the same charges table the gateway writes, so
// effects are counted where they always are. Each request is made by one
// user, named by an Authorization header; the key store is keyed by
// (user, key) — or, key-scope=global, the bug, by the key alone.

// HeaderAuthorization names the user a request is made by:
// "Bearer user-N", N from 1. A real service reads the user from a session
// or a token; here the token is the user's name, and nothing checks it.
const HeaderAuthorization = "Authorization"

// userBearer is the Authorization value of user n.
func userBearer(n int64) string { return "Bearer user-" + strconv.FormatInt(n, 10) }

// userOf reads the user of a request from its Authorization header; 0 and
// false when there is none or it names no user.
func userOf(h http.Header) (int64, bool) {
	rest, ok := strings.CutPrefix(h.Get(HeaderAuthorization), "Bearer user-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || n < 1 {
		return 0, false
	}
	return n, true
}

// restParts is what live takes from a rest-client and a rest-service.
type restParts struct {
	client  *payments.RestClient
	service *payments.RestService
}

// restPart takes node i of findParts when it is a rest-client or a
// rest-service and returns the bits of findParts' found it stands for:
// the client's, or the service's and the gateway's both (the rest-service
// is its own card gateway: it charges in its own transaction). Its
// client's timing becomes an http-client's, so the live client retries as
// it does; 0 when node i is neither.
func (p *parts) restPart(i sim.NodeID, n sim.Node) int {
	if p.rest == nil {
		p.rest = &restParts{}
	}
	switch r := n.(type) {
	case *payments.RestClient:
		p.rest.client, p.client = r, i
		p.clientRole = &payments.HTTPClient{Service: r.Service, Interval: r.Interval, Timeout: r.Timeout}
		return 1
	case *payments.RestService:
		p.rest.service, p.service, p.gateway = r, i, i
		p.serviceRole, p.gatewayRole = &payments.PaymentService{}, &payments.Gateway{Mode: "plain"}
		return 2 | 4
	}
	return 0
}

// restKinds names the rest messages as the client → service route's
// request and response.
func (p *parts) restKinds(t *sim.Topology) {
	if p.rest == nil {
		return
	}
	p.pay, _ = t.MessageByName("rest")
	p.payResponse, _ = t.MessageByName("rest-response")
}

// supportsRest refuses, in one line, what live cannot run of a
// rest-client and a rest-service: only POST /payments with a key per
// operation or per user's payment count, the stored answer replayed, the
// keys in the database.
func (p *parts) supportsRest(topo *sim.Topology) error {
	r := p.rest
	if r == nil {
		return nil
	}
	switch {
	case r.client == nil || r.service == nil:
		return errNoParts
	case r.client.Method != payments.MethodPost:
		return notLive("live_rest_method", nil, "rest-client method: live sends POST /payments only (GET, PUT, DELETE and PATCH are not run live)")
	case r.client.Keys != "unique" && r.client.Keys != "user-counter":
		return notLive("live_rest_keys", map[string]any{"Keys": r.client.Keys}, "rest-client keys="+r.client.Keys+": live makes a key per payment (unique) or per user's payment count (user-counter) only")
	case r.service.RecomputeReply:
		return notLive("live_rest_recompute", nil, "rest-service replay=recompute: live replays the stored response only")
	case len(topo.Nodes[p.service].Tables) > 1 && !topo.Nodes[p.service].Tables[1].Durable:
		return notLive("live_rest_memory", nil, "rest-service store=memory: live keeps the rest-service's keys in the database only")
	}
	return nil
}

// configureService sets the rest-service's variant in the service
// process's configuration.
func (p *parts) configureService(c *ServiceConfig) {
	if p.rest == nil {
		return
	}
	c.Rest, c.GlobalKeys = true, p.rest.service.GlobalKeys
	c.Durable = true
}

// configureClient makes the live client the rest-client: operation op is
// made by user (op-1) % users + 1, with the keys the scenario says.
func (p *parts) configureClient(c *Client) {
	if p.rest == nil {
		return
	}
	c.Users, c.UserKeys = max(p.rest.client.Users, 1), p.rest.client.Keys == "user-counter"
}

// user is the user who makes operation op (the rest-client's rule).
func (c *Client) user(op int32) int64 { return (int64(op)-1)%c.Users + 1 }

// userKey is the Idempotency-Key of operation op under user-counter keys:
// its user's payment count, the same string for the n-th payment of every
// user, and the simulator's number for it (the count itself).
func (c *Client) userKey(op int32) (string, int64) {
	n := (int64(op)-1)/c.Users + 1
	return c.KeyPrefix + "payment-" + strconv.FormatInt(n, 10), n
}

// receiptBase separates a receipt's transaction from its balance, as the
// simulator's rest-service writes a receipt: txn·1000 + balance.
const receiptBase = 1000

// receiptOf is the receipt the client accepted in pr, as the simulator's
// rest-client records it.
func receiptOf(pr paymentResponse) int64 { return pr.TxnID*receiptBase + pr.Balance%receiptBase }

// receiptsAfterCharges wraps the invariants of a rest scenario so that
// they read every client outcome after every charge: the charges come
// from the database at the end of the run (SELECT … FROM charges), and a
// receipt the client accepted can only name a charge committed before it
// was answered, so charges first, receipts after, is an order the run
// had. own-receipt judges each receipt against the charges it has seen.
func receiptsAfterCharges(invs []sim.Invariant) []sim.Invariant {
	out := make([]sim.Invariant, len(invs))
	for i, inv := range invs {
		out[i] = &outcomesLast{Invariant: inv}
	}
	return out
}

// outcomesLast holds the outcomes it is given until the verdict is asked.
type outcomesLast struct {
	sim.Invariant
	held []sim.Event
}

// Record implements sim.Recorder: an outcome is held, anything else passed on.
func (x *outcomesLast) Record(e *sim.Event) {
	if e.Kind == sim.EvOutcome {
		x.held = append(x.held, *e)
		return
	}
	x.Invariant.Record(e)
}

func (x *outcomesLast) flush() {
	for i := range x.held {
		x.Invariant.Record(&x.held[i])
	}
	x.held = nil
}

// Violation implements sim.Invariant, the held outcomes read first.
func (x *outcomesLast) Violation(finished bool) string {
	x.flush()
	return x.Invariant.Violation(finished)
}

// ViolationDetail implements sim.ViolationDetailer.
func (x *outcomesLast) ViolationDetail(finished bool) sim.Violation {
	x.flush()
	return sim.DetailOf(x.Invariant, finished)
}
