package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// ClosureService is POST /transfers over one account row, written in a
// database transaction that the framework retries on a serialization
// failure (Spring's @Retryable, a `db.Transaction(func(tx) error { … })`
// helper, a stream processor's retried function). One attempt of the
// closure goes:
//
//  1. db-get the account row: its version v;
//  2. with EmailInside, send the confirmation e-mail (an effect on
//     emails) — inside the closure;
//  3. db-update-if-version v: the commit.
//
// A 409 (another transfer committed version v+1 first) makes the
// framework run the closure again from step 1 — and an e-mail sent in
// step 2 is sent again: the database work rolls back, the e-mail does
// not. Without EmailInside the e-mail is sent after the commit returned,
// once per committed transfer. Two transfers conflict only when their
// closures interleave (a preempt choice holds one's read back).
type ClosureService struct {
	answerer
	Client      sim.NodeID
	Store       sim.NodeID
	EmailInside bool
}

// closureAccount is the key of the one account row every transfer writes.
const closureAccount int64 = 1

// Receive runs the step of a transfer's closure that m starts or resumes.
func (s *ClosureService) Receive(ctx *sim.Context, m sim.Message) {
	e := envelope{Op: m.Op, Attempt: m.Attempt}
	switch m.Kind {
	case MsgPayRequest:
		s.read(ctx, e)
	case MsgDBGot:
		got := DecodeStoreCall(m)
		if s.EmailInside {
			ctx.Effect(SinkEmails, m.Op, got.Value+1)
		}
		e.Kind = MsgDBVersioned
		ctx.Send(s.Store, StoreCall{Key: closureAccount, Status: int32(got.Value)}.Encode(e))
	case MsgDBVersionedOK:
		got := DecodeStoreCall(m)
		if got.Status != StoreFound {
			s.read(ctx, e) // serialization failure: the framework runs the closure again
			return
		}
		if !s.EmailInside {
			ctx.Effect(SinkEmails, m.Op, got.Value)
		}
		ctx.Send(s.Client, httpResponse{Status: roles.StatusCreated, Result: got.Value}.encode(envelope{Kind: MsgPayResponse, Op: m.Op, Attempt: m.Attempt}))
	}
}

// read starts an attempt of the closure.
func (s *ClosureService) read(ctx *sim.Context, e envelope) {
	e.Kind = MsgDBGet
	ctx.Send(s.Store, StoreCall{Key: closureAccount}.Encode(e))
}

// buildClosureservice builds a closure-service node from its options, each declared where it is read.
func buildClosureservice(a *roles.Args) (sim.Node, []sim.TableSpec) {
	return &ClosureService{
		Client: a.Node("client", "where answers go"),
		Store:  a.Node("store", "the database holding the account row (role key-store)"),
		EmailInside: a.Enum("email", "inside", []string{"inside", "after-commit"},
			"the confirmation e-mail is sent inside the retried transaction closure, or after its commit returned") == "inside",
	}, nil
}
