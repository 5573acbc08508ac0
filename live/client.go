package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// attemptCap bounds the attempts of one operation when the scenario sets
// no limit (the simulator's client retries until answered, within its
// budgets).
const attemptCap = 50

// Client drives the operations as the simulator's http-client does: one
// POST /payments per operation, Interval apart; under at-most-once one
// attempt and no retry; otherwise a new attempt whenever Timeout passes
// without a final answer (409 is not final). Under at-least-once a retry
// is a fresh request without a key; under the idempotent semantics every
// attempt carries the operation's Idempotency-Key — or one of the bugs: a
// new key per attempt, op-1's key for every operation. Clicks > 1 sends
// that many attempts at once, concurrently (the double click). Every final
// answer is an outcome, late ones included.
type Client struct {
	URL         string // the payment service's base URL, through the fault layer
	Semantics   sim.Semantics
	Ops         int
	Interval    time.Duration
	Timeout     time.Duration
	MaxAttempts int32
	KeyPerTry   bool
	ReuseFirst  bool
	Clicks      int32
	HTTP        *http.Client
	Decider     *Decider
	Node        sim.NodeID // the client's node, for outcome events
	// KeyPrefix starts every Idempotency-Key: a run of its own against a
	// service that keeps its keys from run to run (--target).
	KeyPrefix string
	// Users, when positive, makes the client the rest-client (scope.go):
	// operation op is made by user (op-1) % Users + 1, named in an
	// Authorization header, and UserKeys gives it its user's payment count
	// as its key (user-counter) instead of a key of its own.
	Users    int64
	UserKeys bool
}

// Run runs every operation and returns when each has its final answer or
// has stopped trying, or when ctx ends. Every attempt is sent at the time
// the simulator's client sends it — operation op at (op-1)·Interval, a
// retry Timeout after the attempt before — measured from the run's start
// on its virtual clock (vclock), and carries that time (HeaderSentAt): the fault layer delays it from
// there, so requests that arrive together in the simulator arrive
// together here, in the simulator's order.
func (c *Client) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for op := 1; op <= c.Ops; op++ {
		wg.Add(1)
		c.Decider.clk.spawn(func() {
			defer wg.Done()
			c.operation(ctx, int32(op))
		})
	}
	wg.Wait()
}

// sleepUntil waits until the run's virtual offset at; false when ctx
// ends first.
func (c *Client) sleepUntil(ctx context.Context, at time.Duration) bool {
	return c.Decider.SleepUntil(at, ctx.Done(), nil)
}

// key returns the Idempotency-Key of an attempt, "" for none, and the
// simulator's number for that key (its client's: 1 000 000 + op, or the
// tuple key of op and attempt).
func (c *Client) key(op, attempt int32) (string, int64) {
	switch {
	case !roles.Idempotent(c.Semantics):
		return "", 0
	case c.UserKeys:
		return c.userKey(op)
	case c.KeyPerTry:
		return fmt.Sprintf("%spay-op-%d-attempt-%d", c.KeyPrefix, op, attempt), roles.TupleKey(int64(op), int64(attempt), roles.AttemptDigits)
	case c.ReuseFirst:
		return c.KeyPrefix + "pay-op-1", simKeyBase + 1
	}
	return fmt.Sprintf("%spay-op-%d", c.KeyPrefix, op), simKeyBase + int64(op)
}

// simKeyBase is the simulator's http-client's first key, less one.
const simKeyBase = 1_000_000

func (c *Client) operation(ctx context.Context, op int32) {
	final := make(chan struct{})
	var once sync.Once
	var requests sync.WaitGroup
	post := func(attempt int32, at time.Duration) {
		requests.Add(1)
		c.Decider.clk.spawn(func() {
			defer requests.Done()
			if c.post(ctx, op, attempt, at) {
				once.Do(func() { close(final) })
			}
			// The answer is taken: the clock the fault layer stopped when
			// it handed it over runs again (the retry timer waits on it).
			c.Decider.clk.releaseFor(reqID{op, attempt})
		})
	}
	at := time.Duration(op-1) * c.Interval
	if !c.sleepUntil(ctx, at) {
		return
	}
	clicks := max(c.Clicks, 1)
	for a := int32(1); a < clicks; a++ {
		post(a, at) // the double click: more copies at once, one retry timer
	}
	for attempt := clicks; ; attempt++ {
		post(attempt, at)
		last := c.Semantics == sim.AtMostOnce || (c.MaxAttempts > 0 && attempt >= c.MaxAttempts) || attempt >= attemptCap
		if last {
			break
		}
		at += c.Timeout
		if c.Decider.SleepUntil(at, final, ctx.Done()) {
			continue
		}
		break
	}
	// Late answers still count as outcomes; this goroutine waits idle on
	// the requests, each a party of its own (spawn).
	c.Decider.clk.exit()
	requests.Wait()
	c.Decider.clk.enter()
}

// post sends one attempt and reports whether its answer was final.
func (c *Client) post(ctx context.Context, op, attempt int32, at time.Duration) bool {
	body, _ := json.Marshal(paymentRequest{Amount: roles.Payload(sim.OpID(op))})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+PathPayments, bytes.NewReader(body))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Users > 0 {
		req.Header.Set(HeaderAuthorization, userBearer(c.user(op)))
	}
	setIdentity(req.Header, op, attempt)
	c.Decider.sent.sent(op, attempt)
	req.Header.Set(HeaderSentAt, strconv.FormatInt(at.Microseconds(), 10))
	if k, id := c.key(op, attempt); k != "" {
		c.Decider.SetKeyID(k, id)
		req.Header.Set(HeaderIdempotencyKey, k)
	}
	// On its way to the fault layer the request is at work on the run's
	// clock (no jump past it); the fault layer takes it over (took), and
	// this goroutine waits idle for the answer.
	id := reqID{op, attempt}
	c.Decider.clk.sending(id)
	c.Decider.clk.exit()
	resp, err := c.HTTP.Do(req)
	c.Decider.clk.enter()
	c.Decider.clk.took(id)
	if err != nil {
		return false // no answer: lost on the way, or the service died
	}
	defer resp.Body.Close()
	var pr paymentResponse
	readJSON(resp.Body, &pr)
	if resp.StatusCode == http.StatusConflict || resp.StatusCode == http.StatusAccepted || resp.StatusCode >= 500 {
		return false // in flight, not now (503), or a failure: the retry timer will ask again
	}
	value := pr.TxnID
	if c.Users > 0 {
		value = receiptOf(pr) // the rest-client keeps the receipt: transaction and balance
	}
	c.Decider.Record(sim.Event{Kind: sim.EvOutcome, Node: c.Node, Peer: sim.NoNode,
		Msg: sim.Message{Op: sim.OpID(op), Attempt: attempt, Value: value, Status: int32(resp.StatusCode)}})
	return true
}

// sleepCtx waits d; false when ctx ends first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
