package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// FencedLedger is the resource a lock protects: every write it applies is
// an effect on card-charges (the nightly job charges a subscription). With
// Fencing it keeps, per job, the highest fencing token it has seen and
// refuses a write that carries a lower one — the write of a holder whose
// lock expired and was granted again. Without it, it applies every write.
type FencedLedger struct {
	answerer
	Fencing bool
}

const ledgerTokens sim.TableID = 0 // job key → the highest fencing token seen

// Receive applies or refuses one write, then answers it.
func (l *FencedLedger) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgLedgerWrite {
		return
	}
	w := DecodeStoreCall(m)
	status := roles.StatusOK
	if r, ok := ctx.Get(ledgerTokens, w.Key, m.Op); l.Fencing && ok && w.Value < r.Value {
		status = roles.StatusConflict
	} else {
		ctx.Put(ledgerTokens, w.Key, m.Op, sim.Record{State: 1, Value: max(w.Value, r.Value)})
		ctx.Effect(SinkCardCharges, m.Op, w.Value)
	}
	ctx.Send(m.From, StoreCall{Key: w.Key, Status: int32(status), Value: w.Value}.Encode(envelope{Kind: MsgLedgerResult, Op: m.Op, Attempt: m.Attempt}))
}

// buildFencedledger builds a fenced-ledger node from its options, each declared where it is read.
func buildFencedledger(a *roles.Args) (sim.Node, []sim.TableSpec) {
	return &FencedLedger{Fencing: a.Enum("fencing", "on", []string{"on", "off"}, "on: refuse a write whose fencing token is lower than one already seen; off: apply every write") == "on"},
		[]sim.TableSpec{{Name: "tokens", Durable: true, Traced: true, States: []string{"", "FENCE"}}}
}
