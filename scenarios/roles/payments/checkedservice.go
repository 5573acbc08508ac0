package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// CheckedService is POST /payments over a key store that is a node of its
// own (KeyStore): every store operation is a step, and a step's reply is
// where the request's handler resumes. One request goes:
//
//  1. db-get the Idempotency-Key;
//  2. a COMPLETED row: answer its stored response; a PROCESSING row: 409;
//     no row: insert it as PROCESSING;
//  3. the insert succeeded: charge the gateway, with the key as reference;
//     a unique insert that conflicted: 409;
//  4. the charge returned: db-update the row to COMPLETED with the
//     transaction id, then answer 201 with it.
//
// Unique (option lock) chooses the statement of step 2, and nothing else:
// lock=none is an INSERT with no unique constraint on the key (check, then
// insert), and lock=unique-insert is INSERT … ON CONFLICT DO NOTHING. With
// none, two requests
// whose reads both come before either insert both charge — which happens
// only when the scheduler interleaves them (a preempt choice); with
// unique-insert, the database lets exactly one insert through.
//
// A store that does not answer (down, partitioned) is met by a deadline per
// step (StoreTimeout): fail closed answers 503, and the client's retry
// finds the store back; fail open charges without the key, and every retry
// during the outage charges again. A charge already made whose response
// cannot be stored is not answered 503 by fail closed: the service asks
// the store again, every StoreTimeout, until the COMPLETED row is written,
// and answers 201 then — otherwise the key would stay PROCESSING and
// every retry would get 409.
type CheckedService struct {
	Client  sim.NodeID
	Gateway sim.NodeID
	Store   sim.NodeID
	Unique  bool
	// StoreTimeout is how long a step waits for the store's reply (0:
	// forever). When it passes, FailOpen decides: charge without the key
	// (fail open: the dedup is skipped while the store is away) or answer
	// 503 and let the client come back (fail closed).
	StoreTimeout sim.Time
	FailOpen     bool
}

// checkedWaiting is the service's volatile table of steps waiting for the
// store, by sendKey(op, attempt): which step, and the transaction id a
// db-update carries. A reply with no waiting row came after its timeout
// and is ignored.
const checkedWaiting sim.TableID = 0

// The steps a request waits on the store in (Record.State of a waiting
// row, Timer.Phase of its deadline).
const (
	stepRead   int32 = iota + 1 // db-get sent
	stepInsert                  // db-insert or db-insert-if-absent sent
	stepUpdate                  // db-update sent, Value = the transaction id
)

// Start does nothing: the service only answers.
func (s *CheckedService) Start(*sim.Context) {}

// Timer gives up on a store step whose reply has not come: fail open or
// fail closed.
func (s *CheckedService) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerStoreTimeout {
		return
	}
	key := sendKey(t.Op, t.Attempt)
	r, ok := ctx.Get(checkedWaiting, key, t.Op)
	if !ok || r.State != t.Phase {
		return // the reply came in time
	}
	ctx.Delete(checkedWaiting, key, t.Op)
	m := sim.Message{Op: t.Op, Attempt: t.Attempt, Key: t.Key}
	switch {
	case !s.FailOpen && t.Phase == stepUpdate:
		s.ask(ctx, m, stepUpdate, MsgDBUpdate, StoreCall{Key: t.Key, State: roles.KeyCompleted, Value: r.Value})
	case !s.FailOpen:
		s.answer(ctx, m, roles.StatusUnavailable, 0)
	case t.Phase == stepUpdate:
		s.answer(ctx, m, roles.StatusCreated, r.Value) // charged; the response is not stored
	default:
		s.charge(ctx, m, t.Key) // fail open: no key, no dedup
	}
}

// Receive runs the step of a request that m resumes.
func (s *CheckedService) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPayRequest:
		key := int64(decodeHTTPRequest(m).Key)
		s.ask(ctx, m, stepRead, MsgDBGet, StoreCall{Key: key})
	case MsgDBGot:
		if !s.resumed(ctx, m, stepRead) {
			return
		}
		got := DecodeStoreCall(m)
		switch {
		case got.Status == StoreFound && got.State == roles.KeyCompleted:
			s.answer(ctx, m, roles.StatusCreated, got.Value)
		case got.Status == StoreFound:
			s.answer(ctx, m, roles.StatusConflict, 0)
		default:
			kind := MsgDBInsert
			if s.Unique {
				kind = MsgDBInsertUnique
			}
			s.ask(ctx, m, stepInsert, kind, StoreCall{Key: got.Key, State: roles.KeyProcessing, Value: int64(m.Op)})
		}
	case MsgDBInserted:
		if !s.resumed(ctx, m, stepInsert) {
			return
		}
		ins := DecodeStoreCall(m)
		if ins.Status != StoreInserted {
			s.answer(ctx, m, roles.StatusConflict, 0)
			return
		}
		s.charge(ctx, m, ins.Key)
	case MsgChargeResult:
		res := decodeProviderCall(m)
		s.ask(ctx, m, stepUpdate, MsgDBUpdate, StoreCall{Key: int64(res.Key), State: roles.KeyCompleted, Value: res.TxnID})
	case MsgDBUpdated:
		if s.resumed(ctx, m, stepUpdate) {
			s.answer(ctx, m, roles.StatusCreated, DecodeStoreCall(m).Value)
		}
	}
}

// ask sends one store operation for the request of m, and arms its
// deadline when the service has one.
func (s *CheckedService) ask(ctx *sim.Context, m sim.Message, step int32, kind sim.MsgKind, call StoreCall) {
	if s.StoreTimeout > 0 {
		ctx.Put(checkedWaiting, sendKey(m.Op, m.Attempt), m.Op, sim.Record{State: step, Value: call.Value})
		ctx.After(s.StoreTimeout, sim.Timer{Kind: TimerStoreTimeout, Op: m.Op, Attempt: m.Attempt, Key: call.Key, Phase: step})
	}
	ctx.Send(s.Store, call.Encode(envelope{Kind: kind, Op: m.Op, Attempt: m.Attempt}))
}

// resumed reports whether the reply m is awaited (its deadline has not
// passed), and forgets the wait.
func (s *CheckedService) resumed(ctx *sim.Context, m sim.Message, step int32) bool {
	if s.StoreTimeout == 0 {
		return true
	}
	key := sendKey(m.Op, m.Attempt)
	r, ok := ctx.Get(checkedWaiting, key, m.Op)
	if !ok || r.State != step {
		return false // too late: the request was already answered
	}
	ctx.Delete(checkedWaiting, key, m.Op)
	return true
}

func (s *CheckedService) charge(ctx *sim.Context, m sim.Message, key int64) {
	e := envelope{Kind: MsgCharge, Op: m.Op, Attempt: m.Attempt}
	ctx.Send(s.Gateway, providerCall{Key: idemKey(key), Body: fingerprint(roles.Payload(m.Op))}.encode(e))
}

func (s *CheckedService) answer(ctx *sim.Context, m sim.Message, status int32, txn int64) {
	ctx.Send(s.Client, httpResponse{Status: status, Result: txn}.encode(envelope{Kind: MsgPayResponse, Op: m.Op, Attempt: m.Attempt}))
}

// buildCheckedservice builds a checked-payment-service node from its options, each declared where it is read.
func buildCheckedservice(a *roles.Args) (sim.Node, []sim.TableSpec) {
	return &CheckedService{
		Client:  a.Node("client", "the client it answers"),
		Gateway: a.Node("gateway", "the card gateway it charges"),
		Store:   a.Node("store", "the key store (role key-store) holding the Idempotency-Keys"),
		Unique: a.Enum("lock", "none", []string{"none", "unique-insert"},
			"none: INSERT with no unique constraint on the key (check, then insert); unique-insert: INSERT … ON CONFLICT DO NOTHING") == "unique-insert",
		StoreTimeout: a.Duration("store-timeout", "0s", "how long a step waits for the key store before it gives up (0: forever)"),
		FailOpen: a.Enum("on-store-down", "fail-closed", []string{"fail-closed", "fail-open"},
			"when the key store does not answer in time: answer 503 so the client retries later (fail closed), or charge without the key (fail open)") == "fail-open",
	}, []sim.TableSpec{{Name: "waiting"}}
}
