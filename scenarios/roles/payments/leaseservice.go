package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// LeaseService is POST /payments with its Idempotency-Keys in a key store
// node, in the shape of Brandur Leach's Postgres design ("Implementing
// Stripe-like Idempotency Keys in Postgres", 2017): a key row carries
// locked_at, the time its current holder took it. One request goes:
//
//  1. db-get the key;
//  2. COMPLETED: answer the stored response. PROCESSING: with a Lease, a
//     row locked Lease or longer ago is taken over (db-update with a new
//     locked_at) and recovered by a lookup at the gateway by key; without
//     one, or while the lease runs, 409. No row: insert it PROCESSING
//     (INSERT … ON CONFLICT DO NOTHING) with locked_at = now;
//  3. charge the gateway with the key as reference, and wait CallTimeout;
//  4. the charge returned: db-update the row COMPLETED, answer 201. The
//     call failed (no answer in time: the request or its answer was lost,
//     a 5xx): answer 503 — try again later — and leave the row PROCESSING:
//     the service cannot know whether the card was charged.
//
// Without a lease, that PROCESSING row is never released: every retry gets
// 409 until the client gives up, and the payment never completes (a
// liveness failure). With it, a retry after the lease takes the key over,
// asks the gateway what happened, and charges only if nothing was.
type LeaseService struct {
	Client      sim.NodeID
	Gateway     sim.NodeID
	Store       sim.NodeID
	Lease       sim.Time // 0: no lease, a PROCESSING row is held forever
	CallTimeout sim.Time
}

// leaseWaiting is the volatile table of charges waiting for the gateway,
// by sendKey(op, attempt); a result with no waiting row came too late.
const leaseWaiting sim.TableID = 0

// Start does nothing: the service only answers.
func (s *LeaseService) Start(*sim.Context) {}

// Timer gives up on a gateway call: 503, the key left PROCESSING.
func (s *LeaseService) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerCallTimeout {
		return
	}
	key := sendKey(t.Op, t.Attempt)
	if _, ok := ctx.Get(leaseWaiting, key, t.Op); !ok {
		return // answered in time
	}
	ctx.Delete(leaseWaiting, key, t.Op)
	s.answer(ctx, sim.Message{Op: t.Op, Attempt: t.Attempt}, roles.StatusUnavailable, 0)
}

// Receive runs the step of a request that m starts or resumes.
func (s *LeaseService) Receive(ctx *sim.Context, m sim.Message) {
	e := envelope{Op: m.Op, Attempt: m.Attempt}
	switch m.Kind {
	case MsgPayRequest:
		e.Kind = MsgDBGet
		ctx.Send(s.Store, StoreCall{Key: int64(decodeHTTPRequest(m).Key)}.Encode(e))
	case MsgDBGot:
		got := DecodeStoreCall(m)
		switch {
		case got.Status != StoreFound:
			e.Kind = MsgDBInsertUnique
			ctx.Send(s.Store, StoreCall{Key: got.Key, State: roles.KeyProcessing, Value: int64(ctx.Now())}.Encode(e))
		case got.State == roles.KeyCompleted:
			s.answer(ctx, m, roles.StatusCreated, got.Value)
		case s.Lease > 0 && ctx.Now()-sim.Time(got.Value) >= s.Lease:
			e.Kind = MsgDBUpdate // take the key over: a new locked_at
			ctx.Send(s.Store, StoreCall{Key: got.Key, State: roles.KeyProcessing, Value: int64(ctx.Now())}.Encode(e))
		default:
			s.answer(ctx, m, roles.StatusConflict, 0) // held by a request in flight — or by a failed one, forever
		}
	case MsgDBInserted:
		if DecodeStoreCall(m).Status != StoreInserted {
			s.answer(ctx, m, roles.StatusConflict, 0)
			return
		}
		s.call(ctx, m, MsgCharge, DecodeStoreCall(m).Key)
	case MsgDBUpdated:
		got := DecodeStoreCall(m)
		if got.State == roles.KeyCompleted {
			s.answer(ctx, m, roles.StatusCreated, got.Value)
			return
		}
		s.call(ctx, m, MsgLookup, DecodeStoreCall(m).Key) // taken over: what did the failed holder do?
	case MsgLookupResult, MsgChargeResult:
		key := sendKey(m.Op, m.Attempt)
		if _, ok := ctx.Get(leaseWaiting, key, m.Op); !ok {
			return // the call timed out: this request was answered 503
		}
		ctx.Delete(leaseWaiting, key, m.Op)
		res := DecodeProviderCall(m)
		if m.Kind == MsgLookupResult && res.Status != roles.StatusOK {
			s.call(ctx, m, MsgCharge, res.Reference) // not charged: charge now
			return
		}
		e.Kind = MsgDBUpdate
		ctx.Send(s.Store, StoreCall{Key: res.Reference, State: roles.KeyCompleted, Value: res.TxnID}.Encode(e))
	}
}

// call sends a charge or a lookup by key, and waits CallTimeout.
func (s *LeaseService) call(ctx *sim.Context, m sim.Message, kind sim.MsgKind, key int64) {
	ctx.Put(leaseWaiting, sendKey(m.Op, m.Attempt), m.Op, sim.Record{State: 1})
	ctx.Send(s.Gateway, ProviderCall{Reference: key, Body: roles.Payload(m.Op)}.Encode(envelope{Kind: kind, Op: m.Op, Attempt: m.Attempt}))
	ctx.After(s.CallTimeout, sim.Timer{Kind: TimerCallTimeout, Op: m.Op, Attempt: m.Attempt})
}

func (s *LeaseService) answer(ctx *sim.Context, m sim.Message, status int32, txn int64) {
	ctx.Send(s.Client, httpResponse{Status: status, Result: txn}.encode(envelope{Kind: MsgPayResponse, Op: m.Op, Attempt: m.Attempt}))
}

// buildLeaseservice builds a lease-payment-service node from its options, each declared where it is read.
func buildLeaseservice(a *roles.Args) (sim.Node, []sim.TableSpec) {
	return &LeaseService{
		Client:      a.Node("client", "the client it answers"),
		Gateway:     a.Node("gateway", "the card gateway it charges (provider: lookup)"),
		Store:       a.Node("store", "the key store (role key-store) holding the Idempotency-Keys with their locked_at"),
		Lease:       a.Duration("lease", "0", "how long a PROCESSING key stays locked before a retry may take it over (0: forever)"),
		CallTimeout: a.PositiveDuration("call-timeout", "300ms", "how long it waits for the gateway before it answers 503"),
	}, []sim.TableSpec{{Name: "waiting"}}
}
