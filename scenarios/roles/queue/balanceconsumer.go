package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

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
	balanceTotals sim.TableID = iota // booking (op) → balanceRow
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
	rec, _ := ctx.Get(balanceTotals, booking, m.Op)
	r, record := decodeBalanceRow(rec), decodeDelivery(*m).Record
	total := record // set: the cumulative total the record states
	if pickByDesign(ctx, c.Form, "increment", "set") == "increment" {
		total = r.Total + record
	}
	if total == r.Total {
		return // nothing changed
	}
	r.Total, r.At = total, 0
	ctx.Put(balanceTotals, booking, m.Op, r.encode())
	ctx.Effect(SinkBalances, m.Op, total)
}

var (
	balanceConsumerBroker = roles.Node("broker", "where commits go")
	balanceConsumerForm   = roles.Enum("form", "auto", []string{"auto", "increment", "set"}, "the operation's form; auto: increment under amo and alo, set under idem")
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
}
