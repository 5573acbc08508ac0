package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Gateway is the external card provider. Every charge it performs is an
// effect on the card-charges sink, the place double billing is counted.
//
//   - "plain": charges every request, knows nothing about keys;
//   - "lookup": charges every request, and answers a status lookup by the
//     merchant's reference (the idempotency key);
//   - "idempotent": also deduplicates charges by key (Stripe-style).
type Gateway struct {
	answerer
	Mode string // plain | lookup | idempotent
}

const (
	gatewayCharges sim.TableID = iota // key → transaction id
	gatewayCounter                    // row 0: last transaction id issued
)

// Receive charges or answers a lookup.
func (g *Gateway) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgCharge:
		call := decodeProviderCall(m)
		if g.Mode == "idempotent" && call.Key != 0 {
			if r, ok := ctx.Get(gatewayCharges, int64(call.Key), m.Op); ok {
				g.reply(ctx, m, MsgChargeResult, roles.StatusCreated, decodeChargeRow(r).TxnID)
				return
			}
		}
		txn := g.nextTransaction(ctx)
		ctx.Effect(SinkCardCharges, m.Op, txn)
		if call.Key != 0 && g.Mode != "plain" {
			ctx.Put(gatewayCharges, int64(call.Key), m.Op, chargeRow{TxnID: txn, Body: call.Body}.encode())
		}
		g.reply(ctx, m, MsgChargeResult, roles.StatusCreated, txn)
	case MsgLookup:
		if g.Mode == "plain" {
			g.reply(ctx, m, MsgLookupResult, roles.StatusNotImplemented, 0)
			return
		}
		if r, ok := ctx.Get(gatewayCharges, int64(decodeProviderCall(m).Key), m.Op); ok {
			g.reply(ctx, m, MsgLookupResult, roles.StatusOK, decodeChargeRow(r).TxnID)
			return
		}
		g.reply(ctx, m, MsgLookupResult, roles.StatusNotFound, 0)
	}
}

func (g *Gateway) nextTransaction(ctx *sim.Context) int64 {
	rec, _ := ctx.Get(gatewayCounter, 0, 0)
	c := decodeCounterRow(rec)
	if c.Last == 0 {
		c.Last = 8820 // the lesson's transaction 8821 is the first one
	}
	c.Last++
	ctx.Put(gatewayCounter, 0, 0, c.encode())
	return c.Last
}

func (g *Gateway) reply(ctx *sim.Context, m sim.Message, kind sim.MsgKind, status int32, txn int64) {
	answer := decodeProviderCall(m)
	answer.Status, answer.TxnID = status, txn
	ctx.Send(m.From, answer.encode(envelope{Kind: kind, Op: m.Op, Attempt: m.Attempt}))
}

// buildGateway builds a card-gateway node from its options, each declared where it is read.
func buildGateway(a *roles.Args) (sim.Node, []sim.TableSpec) {
	g := &Gateway{Mode: a.Enum("provider", "lookup", []string{"plain", "lookup", "idempotent"}, "no key support, status lookup by key, or dedup by key")}
	return g, []sim.TableSpec{
		{Name: "charges", Durable: true, Traced: true, States: []string{"CHARGED"}, AgeFree: true},
		{Name: "counter", Durable: true, AgeFree: true},
	}
}
