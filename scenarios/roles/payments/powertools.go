package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// PowertoolsFunction is an AWS Lambda function whose handler is wrapped in
// Powertools for AWS Lambda's idempotency utility (@idempotent, with a
// DynamoDB persistence layer), reached here as POST /payments. One
// invocation goes:
//
//  1. save_inprogress: a conditional put of the idempotency record,
//     INPROGRESS, that succeeds when there is no record, when the record
//     has expired (expires_after_seconds, 1 h by default) or when it is
//     INPROGRESS and its in-progress expiry has passed. Modelled as the
//     key store's SET NX PX: the lock's TTL is the in-progress expiry —
//     the invocation's remaining time when the Lambda context is
//     registered, the record's expiry when it is not;
//  2. the put failed: a COMPLETED record answers its saved response; an
//     INPROGRESS one raises IdempotencyAlreadyInProgressError — the
//     invocation fails (409 here) and the event source retries later;
//  3. the handler body: charge the card gateway with the key as
//     reference, then write the order (an effect on Orders);
//  4. save_success: the record becomes COMPLETED with the response, and
//     the invocation answers 201.
//
// The invocation has Timeout to live (the function's timeout). When it
// runs out the sandbox is stopped mid-handler: nothing more runs, nothing
// is answered, and — unlike a handler exception, after which Powertools
// deletes the record — the record stays INPROGRESS. If the charge already
// happened, the card is charged and the order never written. Retries get
// IdempotencyAlreadyInProgressError until the in-progress expiry passes;
// after it a retry runs the handler again and charges again, unless the
// gateway deduplicates by the key.
type PowertoolsFunction struct {
	Client  sim.NodeID
	Gateway sim.NodeID
	Store   sim.NodeID
	Timeout sim.Time // the function's timeout: the invocation is stopped after it
	// Context is true when the Lambda context is registered
	// (config.register_lambda_context): the INPROGRESS record expires
	// with the invocation's remaining time. Without it, it lasts until
	// the record expires (ExpiresAfter).
	Context      bool
	ExpiresAfter sim.Time // expires_after_seconds
}

// ptInvocations is the volatile table of running invocations, by
// sendKey(op, attempt): Value the idempotency key, Aux the deadline. An
// invocation without a row has been stopped (or has answered).
const ptInvocations sim.TableID = 0

// Start does nothing: the function only answers.
func (f *PowertoolsFunction) Start(*sim.Context) {}

// Timer stops an invocation that ran out of time, wherever it was.
func (f *PowertoolsFunction) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerLambdaTimeout {
		return
	}
	ctx.Delete(ptInvocations, sendKey(t.Op, t.Attempt), t.Op) // stopped: the record stays as it is
}

// running reports whether the invocation m belongs to is still alive, and
// its idempotency key.
func (f *PowertoolsFunction) running(ctx *sim.Context, m sim.Message) (int64, bool) {
	r, ok := ctx.Get(ptInvocations, sendKey(m.Op, m.Attempt), m.Op)
	return r.Value, ok
}

// Receive runs the step of an invocation that m starts or resumes.
func (f *PowertoolsFunction) Receive(ctx *sim.Context, m sim.Message) {
	e := envelope{Op: m.Op, Attempt: m.Attempt}
	if m.Kind == MsgPayRequest {
		key := int64(decodeHTTPRequest(m).Key)
		deadline := ctx.Now() + f.Timeout
		ctx.Put(ptInvocations, sendKey(m.Op, m.Attempt), m.Op, sim.Record{State: 1, Value: key, Aux: int64(deadline)})
		ctx.After(f.Timeout, sim.Timer{Kind: TimerLambdaTimeout, Op: m.Op, Attempt: m.Attempt})
		e.Kind = MsgDBLock // save_inprogress
		ctx.Send(f.Store, StoreCall{Key: key, Payload: int64(f.inProgressExpiry(ctx, deadline))}.Encode(e))
		return
	}
	key, alive := f.running(ctx, m)
	if !alive {
		return // the invocation was stopped: its sandbox runs nothing more
	}
	switch m.Kind {
	case MsgDBLocked:
		got := DecodeStoreCall(m)
		switch {
		case got.Status == StoreInserted:
			ctx.Send(f.Gateway, ProviderCall{Reference: key, Body: roles.Payload(m.Op)}.Encode(envelope{Kind: MsgCharge, Op: m.Op, Attempt: m.Attempt}))
		case got.State == roles.KeyCompleted:
			f.answer(ctx, m, roles.StatusCreated, got.Value) // the saved response
		default:
			f.answer(ctx, m, roles.StatusConflict, 0) // IdempotencyAlreadyInProgressError
		}
	case MsgChargeResult:
		res := DecodeProviderCall(m)
		ctx.Effect(SinkOrdersWritten, m.Op, res.TxnID) // the rest of the handler: the order
		e.Kind = MsgDBUpdate                           // save_success
		ctx.Send(f.Store, StoreCall{Key: key, State: roles.KeyCompleted, Value: res.TxnID}.Encode(e))
	case MsgDBUpdated:
		f.answer(ctx, m, roles.StatusCreated, DecodeStoreCall(m).Value)
	}
}

// inProgressExpiry is how long the INPROGRESS record holds: the remaining
// time of the invocation when the context is registered, else the
// record's expiry.
func (f *PowertoolsFunction) inProgressExpiry(ctx *sim.Context, deadline sim.Time) sim.Time {
	if f.Context {
		return max(deadline-ctx.Now(), 1)
	}
	return f.ExpiresAfter
}

func (f *PowertoolsFunction) answer(ctx *sim.Context, m sim.Message, status int32, txn int64) {
	ctx.Delete(ptInvocations, sendKey(m.Op, m.Attempt), m.Op)
	ctx.Send(f.Client, httpResponse{Status: status, Result: txn}.encode(envelope{Kind: MsgPayResponse, Op: m.Op, Attempt: m.Attempt}))
}

// buildPowertools builds a powertools-function node from its options, each declared where it is read.
func buildPowertools(a *roles.Args) (sim.Node, []sim.TableSpec) {
	return &PowertoolsFunction{
		Client:  a.Node("client", "the invoker it answers (an event source that retries)"),
		Gateway: a.Node("gateway", "the card gateway the handler charges, with the idempotency key as reference"),
		Store:   a.Node("store", "the persistence layer (role key-store; DynamoDB in Powertools) holding the idempotency records"),
		Timeout: a.PositiveDuration("timeout", "3s", "the function's timeout: an invocation still running after it is stopped, its record left INPROGRESS"),
		Context: a.Enum("context", "registered", []string{"registered", "none"},
			"registered: the INPROGRESS record expires with the invocation's remaining time (register_lambda_context); none: it lasts until the record expires") == "registered",
		ExpiresAfter: a.PositiveDuration("expires-after", "1h", "expires_after_seconds: how long an idempotency record lasts"),
	}, []sim.TableSpec{{Name: "invocations"}}
}
