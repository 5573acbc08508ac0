package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// BalanceConsumer keeps the paid total of bookings. Each booking gets
// PerBooking payments, one per operation, in order: operation op is
// payment number (op-1)%PerBooking+1 of booking (op-1)/PerBooking+1, of
// amount roles.Payload(op). A payment record comes in one of three forms:
//
//   - increment: "add amount to the booking's total" — applied twice, the
//     total counts the payment twice;
//   - set: "the booking's cumulative paid total is now T" — applied twice
//     in a row, nothing changes; but a redelivered older payment that
//     arrives after a newer one sets the older, smaller total back;
//   - versioned-set: "the total is now T, as of payment v" — applied only
//     if v is newer than the stored version, so neither a repeat nor a
//     stale record changes anything.
//
// An effect on the balances sink is counted for a payment whenever a
// stored total comes to include it (a set to payment v's total includes
// every earlier payment of the booking not yet included), and again when
// a stale set changes the total; the value is the new total. There is no
// dedup store.
type BalanceConsumer struct {
	passive
	naturalConsumer
	Form       string // auto | increment | set | versioned-set
	PerBooking int64  // payments per booking
}

const (
	balanceTotals sim.TableID = iota // booking → balanceRow
	balanceSeen
)

// Receive applies a delivered payment.
func (c *BalanceConsumer) Receive(ctx *sim.Context, m sim.Message) { c.receive(ctx, m, c) }

// cumulative is the total of a booking after its payments first..op.
func cumulative(first, op sim.OpID) int64 {
	var total int64
	for j := first; j <= op; j++ {
		total += roles.Payload(j)
	}
	return total
}

func (c *BalanceConsumer) apply(ctx *sim.Context, m *sim.Message) {
	booking := (int64(m.Op)-1)/c.PerBooking + 1
	version := (int64(m.Op)-1)%c.PerBooking + 1
	first := m.Op - sim.OpID(version) + 1
	rec, _ := ctx.Get(balanceTotals, booking, m.Op)
	r := decodeBalanceRow(rec)
	switch pickByDesign(ctx, c.Form, "increment", "versioned-set") {
	case "increment":
		next := balanceRow{Total: r.Total + decodeDelivery(*m).Record, Version: max(r.Version, version), Payment: int32(version)}
		ctx.Put(balanceTotals, booking, m.Op, next.encode())
		ctx.Effect(SinkBalances, m.Op, next.Total)
		return
	case "versioned-set":
		if version <= r.Version {
			return // a repeat or a stale payment: the stored total is as new
		}
	}
	next := balanceRow{Total: cumulative(first, m.Op), Version: version, Payment: int32(version)}
	if next.Total == r.Total && next.Version == r.Version {
		return // the same total again: nothing changed
	}
	ctx.Put(balanceTotals, booking, m.Op, next.encode())
	// A set forward includes every payment after the stored version, each
	// once; a stale set back changes the total for this payment again.
	from := version
	if version > r.Version {
		from = r.Version + 1
	}
	for v := from; v <= version; v++ {
		ctx.Effect(SinkBalances, first+sim.OpID(v-1), next.Total)
	}
}

// buildBalanceconsumer builds a balance-consumer node from its options, each declared where it is read.
func buildBalanceconsumer(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &BalanceConsumer{
		naturalConsumer: naturalConsumer{Broker: consumerBroker(a), Seen: balanceSeen},
		Form: a.Enum("form", "auto", []string{"auto", "increment", "set", "versioned-set"},
			"the payment's form; auto: increment under amo and alo, versioned-set under idem"),
		PerBooking: a.Int("per-booking", 1, 1, 100, "payments per booking: operation op is payment (op-1)%n+1 of booking (op-1)/n+1"),
	}
	return c, []sim.TableSpec{{Name: "totals", Durable: true, Traced: true}, {Name: "seen", Durable: true, AgeFree: true}}
}
