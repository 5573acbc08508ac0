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
type CheckedService struct {
	Client  sim.NodeID
	Gateway sim.NodeID
	Store   sim.NodeID
	Unique  bool
}

// Start does nothing: the service only answers.
func (s *CheckedService) Start(*sim.Context) {}

// Timer is unused.
func (s *CheckedService) Timer(*sim.Context, sim.Timer) {}

// Receive runs the step of a request that m resumes.
func (s *CheckedService) Receive(ctx *sim.Context, m sim.Message) {
	e := envelope{Op: m.Op, Attempt: m.Attempt}
	switch m.Kind {
	case MsgPayRequest:
		key := int64(decodeHTTPRequest(m).Key)
		e.Kind = MsgDBGet
		ctx.Send(s.Store, storeCall{Key: key}.encode(e))
	case MsgDBGot:
		got := decodeStoreCall(m)
		switch {
		case got.Status == dbFound && got.State == roles.KeyCompleted:
			s.answer(ctx, m, roles.StatusCreated, got.Value)
		case got.Status == dbFound:
			s.answer(ctx, m, roles.StatusConflict, 0)
		default:
			e.Kind = MsgDBInsert
			if s.Unique {
				e.Kind = MsgDBInsertUnique
			}
			ctx.Send(s.Store, storeCall{Key: got.Key, State: roles.KeyProcessing, Value: int64(m.Op)}.encode(e))
		}
	case MsgDBInserted:
		ins := decodeStoreCall(m)
		if ins.Status != dbInserted {
			s.answer(ctx, m, roles.StatusConflict, 0)
			return
		}
		e.Kind = MsgCharge
		ctx.Send(s.Gateway, providerCall{Key: idemKey(ins.Key), Body: fingerprint(roles.Payload(m.Op))}.encode(e))
	case MsgChargeResult:
		res := decodeProviderCall(m)
		e.Kind = MsgDBUpdate
		ctx.Send(s.Store, storeCall{Key: int64(res.Key), State: roles.KeyCompleted, Value: res.TxnID}.encode(e))
	case MsgDBUpdated:
		s.answer(ctx, m, roles.StatusCreated, decodeStoreCall(m).Value)
	}
}

func (s *CheckedService) answer(ctx *sim.Context, m sim.Message, status int32, txn int64) {
	ctx.Send(s.Client, httpResponse{Status: status, Result: txn}.encode(envelope{Kind: MsgPayResponse, Op: m.Op, Attempt: m.Attempt}))
}

var (
	checkedClient  = roles.Node("client", "the client it answers")
	checkedGateway = roles.Node("gateway", "the card gateway it charges")
	checkedStore   = roles.Node("store", "the key store (role key-store) holding the Idempotency-Keys")
	checkedLock    = roles.Enum("lock", "none", []string{"none", "unique-insert"},
		"none: INSERT with no unique constraint on the key (check, then insert); unique-insert: INSERT … ON CONFLICT DO NOTHING")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "checked-payment-service",
		Doc:     "POST /payments whose Idempotency-Key store is a node of its own: read the key, insert it, charge, store the response — each a step other requests can interleave with",
		Options: []roles.Option{checkedClient, checkedGateway, checkedStore, checkedLock},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &CheckedService{
				Client: checkedClient.Get(a), Gateway: checkedGateway.Get(a), Store: checkedStore.Get(a),
				Unique: checkedLock.Get(a) == "unique-insert",
			}, nil
		},
	})
}
