package payments

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Invariants of the REST lessons, each a fold over the trace: what the
// client accepted (outcomes), what the service charged (effects on
// card-charges) and the requests it was delivered.

// txnOp is one charge: its transaction id and the operation it was made for.
type txnOp struct {
	Txn int64
	Op  sim.OpID
}

// ownReceipt is the invariant "every receipt a client accepts is for a
// charge of its own operation": an Idempotency-Key is no authorization
// token, and a key store shared across users answers one user's payment
// with another's receipt.
type ownReceipt struct {
	charges []txnOp // sorted by Txn
	roles.Verdict
}

// Record implements sim.Recorder.
func (x *ownReceipt) Record(e *sim.Event) {
	m := &e.Msg
	switch {
	case e.Kind == sim.EvEffect && sim.SinkID(e.Label) == SinkCardCharges:
		i, _ := slices.BinarySearchFunc(x.charges, m.Value, func(c txnOp, t int64) int { return h2Cmp(c.Txn, t) })
		x.charges = slices.Insert(x.charges, i, txnOp{Txn: m.Value, Op: m.Op})
	case e.Kind == sim.EvOutcome && m.Status == roles.StatusCreated && x.Why.Held():
		txn := receiptTxn(m.Value)
		i, found := slices.BinarySearchFunc(x.charges, txn, func(c txnOp, t int64) int { return h2Cmp(c.Txn, t) })
		switch {
		case !found:
			x.Why = sim.NewViolation("violation.own-receipt.never-charged", 0,
				fmt.Sprintf("%s accepted a receipt for transaction %d, which was never charged", m.Op, txn),
				"Op", m.Op.String(), "Txn", sim.Itoa(txn))
		case x.charges[i].Op != m.Op:
			x.Why = sim.NewViolation("violation.own-receipt.other-op", 0,
				fmt.Sprintf("%s accepted the receipt of transaction %d, charged for %s: another user's stored response", m.Op, txn, x.charges[i].Op),
				"Op", m.Op.String(), "Txn", sim.Itoa(txn), "Other", x.charges[i].Op.String())
		}
	}
}

func (x *ownReceipt) Name() string { return "own-receipt" }

func (x *ownReceipt) Clone() sim.Invariant {
	return &ownReceipt{charges: slices.Clone(x.charges), Verdict: x.Verdict}
}
func (x *ownReceipt) AppendState(b []byte) []byte { return appendTxnOps(b, x.charges, x.Why.English) }

func appendTxnOps(b []byte, list []txnOp, why string) []byte {
	b = binary.AppendUvarint(b, uint64(len(list)))
	for _, c := range list {
		b = binary.AppendVarint(b, c.Txn)
		b = binary.AppendVarint(b, int64(c.Op))
	}
	return append(b, h2Bool(why != ""))
}

// oneReceipt is the invariant "a payment's client sees one receipt":
// every 201 a client accepts for one operation carries the same result.
// A response rendered again on a retry (instead of replayed from the
// store) breaks it, though the card was charged once.
type oneReceipt struct {
	first []txnOp // by Op: the first receipt accepted (Txn holds the receipt)
	roles.Verdict
}

// Record implements sim.Recorder.
func (x *oneReceipt) Record(e *sim.Event) {
	m := &e.Msg
	if e.Kind != sim.EvOutcome || m.Status != roles.StatusCreated || !x.Why.Held() {
		return
	}
	i, found := slices.BinarySearchFunc(x.first, m.Op, func(c txnOp, op sim.OpID) int { return h2Cmp(int64(c.Op), int64(op)) })
	if !found {
		x.first = slices.Insert(x.first, i, txnOp{Txn: m.Value, Op: m.Op})
		return
	}
	if got := x.first[i].Txn; got != m.Value {
		x.Why = sim.NewViolation("violation.one-receipt", 0,
			fmt.Sprintf("%s: the client accepted two different receipts for one payment (%d, then %d)", m.Op, got, m.Value),
			"Op", m.Op.String(), "First", sim.Itoa(got), "Second", sim.Itoa(m.Value))
	}
}

func (x *oneReceipt) Name() string { return "one-receipt" }

func (x *oneReceipt) Clone() sim.Invariant {
	return &oneReceipt{first: slices.Clone(x.first), Verdict: x.Verdict}
}
func (x *oneReceipt) AppendState(b []byte) []byte { return appendTxnOps(b, x.first, x.Why.English) }

// keyedCharges is the invariant "no charge without an Idempotency-Key":
// a service charges only for a POST that carried a key; a POST without
// one is answered 400. It is judged per node: the request a node was last
// delivered is the one its next charge is for (a handler runs atomically).
type keyedCharges struct {
	keyless []bool // per node: the last request delivered was a POST without a key
	roles.Verdict
}

// Record implements sim.Recorder.
func (x *keyedCharges) Record(e *sim.Event) {
	m := &e.Msg
	if int(e.Node) >= len(x.keyless) || !x.Why.Held() {
		return
	}
	switch {
	case e.Kind == sim.EvDeliver && m.Kind == MsgRest:
		req := decodeRestRequest(*m)
		x.keyless[e.Node] = req.Method == methodPost && req.Key == 0
	case e.Kind == sim.EvEffect && sim.SinkID(e.Label) == SinkCardCharges && x.keyless[e.Node]:
		x.Why = sim.NewViolation("violation.keyed-charges", 0,
			fmt.Sprintf("%s was charged for a %s without an Idempotency-Key, not refused with 400", m.Op, methodNames[methodPost]),
			"Op", m.Op.String(), "Method", methodNames[methodPost])
	}
}

func (x *keyedCharges) Name() string { return "keyed-charges" }

func (x *keyedCharges) Clone() sim.Invariant {
	return &keyedCharges{keyless: slices.Clone(x.keyless), Verdict: x.Verdict}
}
func (x *keyedCharges) AppendState(b []byte) []byte {
	for _, k := range x.keyless {
		b = append(b, h2Bool(k))
	}
	return append(b, h2Bool(!x.Why.Held()))
}

// receiptClients are the roles whose accepted responses carry a receipt.
var receiptClients = []string{"http-client", "rest-client", "backoff-client"}

func registerRestchecks(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name:    "own-receipt",
		Clients: receiptClients,
		Doc:     "every receipt a client accepts is for a charge of its own operation (no other user's stored response)",
		New:     func(*sim.Topology) sim.Invariant { return &ownReceipt{} },
	})
	c.RegisterInvariant(&roles.InvariantSpec{
		Name:    "one-receipt",
		Clients: receiptClients,
		Doc:     "every 201 a client accepts for one payment carries the same receipt (the stored response, not a recomputed one)",
		New:     func(*sim.Topology) sim.Invariant { return &oneReceipt{} },
	})
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "keyed-charges",
		Doc:  "a card is charged only for a POST that carried an Idempotency-Key; one without is answered 400",
		New:  func(topo *sim.Topology) sim.Invariant { return &keyedCharges{keyless: make([]bool, len(topo.Nodes))} },
	})
}
