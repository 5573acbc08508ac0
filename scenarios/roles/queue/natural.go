package queue

import (
	"strconv"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// naturalConsumer is the delivery discipline shared by the consumers whose
// idempotency comes from the form of the operation, not from a dedup store:
//
//   - at-most-once: commit the offset, then apply — a crash in between
//     loses the record;
//   - otherwise: apply, then commit — a crash in between, or a lost commit,
//     brings a redelivery, and the record is applied again. Whether that
//     second application changes anything is the lesson.
type naturalConsumer struct {
	Broker sim.NodeID
	Seen   sim.TableID // offsets seen: at-most-once transport dedup
}

// applier applies one delivered record to a consumer's tables.
type applier interface {
	apply(ctx *sim.Context, m *sim.Message)
}

func (c naturalConsumer) receive(ctx *sim.Context, m sim.Message, a applier) {
	if m.Kind != MsgDeliver {
		return
	}
	commit := sim.Message{Kind: MsgCommit, Op: m.Op, Attempt: m.Attempt, Key: m.Key}
	if ctx.Semantics() == sim.AtMostOnce {
		if transportDup(ctx, c.Seen, m.Key, m.Op) {
			return
		}
		ctx.Send(c.Broker, commit)
		if ctx.CrashPoint(PointAfterCommit, &m) {
			return
		}
		a.apply(ctx, &m)
		return
	}
	a.apply(ctx, &m)
	if ctx.CrashPoint(PointAfterEffect, &m) {
		return
	}
	ctx.Send(c.Broker, commit)
}

// pickByDesign resolves an "auto" option: the naive form under at-most-once
// and at-least-once, the idempotent form under the idempotent semantics.
func pickByDesign(ctx *sim.Context, mode, naive, idem string) string {
	if mode != "auto" {
		return mode
	}
	if roles.Idempotent(ctx.Semantics()) {
		return idem
	}
	return naive
}

// BalanceConsumer keeps the paid total of bookings. Record op is a payment
// of its amount on booking op, sent in one of two forms:
//
//   - increment: "add amount to the booking's total" — applied twice, the
//     total is wrong;
//   - set: "the booking's cumulative paid total is now amount" — applied
//     twice, nothing changes.
//
// An effect on the balances sink is counted whenever a booking's stored
// total changes, with the new total as its value. There is no dedup store.
type BalanceConsumer struct {
	naturalConsumer
	Form string // auto | increment | set
}

const (
	balanceTotals sim.TableID = iota // booking (op) → {Value: paid total}
	balanceSeen
)

// Start does nothing: the broker redelivers what was not committed.
func (c *BalanceConsumer) Start(*sim.Context) {}

// Timer is unused.
func (c *BalanceConsumer) Timer(*sim.Context, sim.Timer) {}

// Receive applies a delivered payment.
func (c *BalanceConsumer) Receive(ctx *sim.Context, m sim.Message) { c.receive(ctx, m, c) }

func (c *BalanceConsumer) apply(ctx *sim.Context, m *sim.Message) {
	booking := int64(m.Op)
	r, _ := ctx.Get(balanceTotals, booking, m.Op)
	total := m.Payload // set: the cumulative total the record states
	if pickByDesign(ctx, c.Form, "increment", "set") == "increment" {
		total = r.Value + m.Payload
	}
	if total == r.Value {
		return // nothing changed
	}
	r.Value, r.At = total, 0
	ctx.Put(balanceTotals, booking, m.Op, r)
	ctx.Effect(SinkBalances, m.Op, total)
}

// OrderLineWriter writes one order line per record into an order_lines
// table. The record for operation op carries the line's natural key
// (order_id, line_id): order (op-1)/Lines+1, line (op-1)%Lines+1.
//
//   - plain: INSERT INTO order_lines … — every delivery adds a row with a
//     new surrogate id;
//   - upsert: INSERT … ON CONFLICT (order_id, line_id) DO NOTHING — a unique
//     index on the natural key turns a redelivery into a no-op.
//
// Every row inserted is an effect on order-lines (value: the row id).
type OrderLineWriter struct {
	naturalConsumer
	Insert string // auto | plain | upsert
	Lines  int64  // lines per order
}

const (
	lineRows    sim.TableID = iota // row id → {Value: order_id, State: line_id}
	lineUnique                     // the unique index: order_id·1000 + line_id → {Value: row id}
	lineCounter                    // row 0: {Value: last row id}
	lineSeen
)

// Start does nothing: the broker redelivers what was not committed.
func (w *OrderLineWriter) Start(*sim.Context) {}

// Timer is unused.
func (w *OrderLineWriter) Timer(*sim.Context, sim.Timer) {}

// Receive inserts the line of a delivered record.
func (w *OrderLineWriter) Receive(ctx *sim.Context, m sim.Message) { w.receive(ctx, m, w) }

func (w *OrderLineWriter) apply(ctx *sim.Context, m *sim.Message) {
	order, line := (int64(m.Op)-1)/w.Lines+1, (int64(m.Op)-1)%w.Lines+1
	natural := order*1000 + line
	upsert := pickByDesign(ctx, w.Insert, "plain", "upsert") == "upsert"
	if upsert {
		if _, conflict := ctx.Get(lineUnique, natural, m.Op); conflict {
			return // ON CONFLICT DO NOTHING
		}
	}
	n, _ := ctx.Get(lineCounter, 0, m.Op)
	n.Value++
	n.At = 0
	ctx.Put(lineCounter, 0, m.Op, n)
	ctx.Put(lineRows, n.Value, m.Op, sim.Record{State: int32(line), Value: order})
	if upsert {
		ctx.Put(lineUnique, natural, m.Op, sim.Record{Value: n.Value})
	}
	ctx.Effect(SinkOrderLines, m.Op, n.Value)
}

// rightTotals is the invariant "right-totals": every booking ends with the
// total its first change gave it (the payment's amount). A later change of
// a booking's total means a payment was counted twice.
type rightTotals struct {
	sink  uint8
	first []int64 // by op: the first total, 0 = none yet
	wrong string
}

func newRightTotals(topo *sim.Topology) *rightTotals {
	r := &rightTotals{sink: 255}
	for i, name := range topo.Sinks {
		if name == "balances" {
			r.sink = uint8(i)
		}
	}
	return r
}

// Name implements sim.Invariant.
func (r *rightTotals) Name() string { return "right-totals" }

// Record implements sim.Recorder.
func (r *rightTotals) Record(e *sim.Event) {
	if e.Kind != sim.EvEffect || e.Label != r.sink || e.Msg.Op <= 0 {
		return
	}
	op := int(e.Msg.Op)
	for len(r.first) <= op {
		r.first = append(r.first, 0)
	}
	switch {
	case r.first[op] == 0:
		r.first[op] = e.Msg.Value
	case r.wrong == "" && e.Msg.Value != r.first[op]:
		r.wrong = "booking " + strconv.Itoa(op) + " shows " + strconv.FormatInt(e.Msg.Value, 10) +
			" paid at " + e.At.String() + ", but " + strconv.FormatInt(r.first[op], 10) + " was paid"
	}
}

// Violation implements sim.Invariant.
func (r *rightTotals) Violation(bool) string { return r.wrong }

// Clone implements sim.Invariant.
func (r *rightTotals) Clone() sim.Invariant {
	c := *r
	c.first = append([]int64(nil), r.first...)
	return &c
}

// AppendState implements sim.Invariant.
func (r *rightTotals) AppendState(b []byte) []byte {
	for _, v := range r.first {
		b = strconv.AppendInt(b, v, 10)
		b = append(b, ',')
	}
	if r.wrong != "" {
		b = append(b, '!')
	}
	return b
}

// lineNames names line ids in traces: state 2 is "line 2".
var lineNames = func() []string {
	names := make([]string, 21)
	for i := 1; i < len(names); i++ {
		names[i] = "line " + strconv.Itoa(i)
	}
	return names
}()

var (
	balanceConsumerBroker = roles.Node("broker", "where commits go")
	balanceConsumerForm   = roles.Enum("form", "auto", []string{"auto", "increment", "set"}, "the operation's form; auto: increment under amo and alo, set under idem")
	orderLineWriterBroker = roles.Node("broker", "where commits go")
	orderLineWriterInsert = roles.Enum("insert", "auto", []string{"auto", "plain", "upsert"}, "plain insert or upsert on the natural key; auto: plain under amo and alo, upsert under idem")
	orderLineWriterLines  = roles.Int("lines", 2, 1, 999, "lines per order")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "balance-consumer",
		Doc:     "applies payments to booking totals as \"add amount\" (increment) or \"the total is now amount\" (set); no dedup store",
		Options: []roles.Option{balanceConsumerBroker, balanceConsumerForm},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			c := &BalanceConsumer{naturalConsumer: naturalConsumer{Broker: balanceConsumerBroker.Get(a), Seen: balanceSeen},
				Form: balanceConsumerForm.Get(a)}
			return c, []sim.TableSpec{{Name: "totals", Durable: true, Traced: true}, {Name: "seen", Durable: true}}
		},
	})
	roles.Register(&roles.Role{
		Name:    "order-line-writer",
		Doc:     "inserts one order line per record: plain INSERT, or INSERT … ON CONFLICT (order_id, line_id) DO NOTHING",
		Options: []roles.Option{orderLineWriterBroker, orderLineWriterInsert, orderLineWriterLines},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			w := &OrderLineWriter{naturalConsumer: naturalConsumer{Broker: orderLineWriterBroker.Get(a), Seen: lineSeen},
				Insert: orderLineWriterInsert.Get(a), Lines: orderLineWriterLines.Get(a)}
			return w, []sim.TableSpec{
				{Name: "order_lines", Durable: true, Traced: true, States: lineNames},
				{Name: "order_lines_key", Durable: true, Traced: true},
				{Name: "sequence", Durable: true},
				{Name: "seen", Durable: true},
			}
		},
	})
	roles.RegisterInvariant(&roles.InvariantSpec{
		Name: "right-totals",
		Doc:  "every booking's paid total ends as its payment's amount: a total that changes again counted a payment twice",
		New:  func(topo *sim.Topology) sim.Invariant { return newRightTotals(topo) },
	})
}
