package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// OrderLineConsumer is one member of a consumer group copying order lines
// from a topic into an order_lines table that lives in a database node of
// its own (order-lines-db), so each statement is a step of its own. The
// record for operation op is line (op-1)%Lines+1 of order (op-1)/Lines+1,
// and the table's natural key is (order_id, line_id). Insert chooses the
// statement, and nothing else:
//
//   - plain: INSERT INTO order_lines … — no unique key: every delivery
//     adds a row;
//   - check-then-insert: SELECT by (order_id, line_id), and INSERT only if
//     there is no row — still no unique key, so two deliveries of one
//     line whose SELECTs both run before either INSERT both add a row;
//   - upsert: INSERT … ON CONFLICT (order_id, line_id) DO NOTHING — the
//     unique key decides, whatever the interleaving.
//
// Under at-most-once it commits the offset before the first statement;
// otherwise after the last one (a crash in between means a redelivery).
type OrderLineConsumer struct {
	passive
	Broker sim.NodeID
	DB     sim.NodeID
	Insert string // plain | check-then-insert | upsert
	Lines  int64
}

// orderLinePending is the consumer's volatile table of deliveries in
// flight, by the line's natural key: the offset to commit when the line's
// statements are done. Two copies of one line in flight at the same
// consumer share the row; the one whose offset is lost is redelivered.
const (
	orderLinePending sim.TableID = iota
	orderLineSeen                // offsets seen: at-most-once transport dedup
)

// Receive runs the step of a delivery that m starts or resumes.
func (c *OrderLineConsumer) Receive(ctx *sim.Context, m sim.Message) {
	e := envelope{Op: m.Op, Attempt: m.Attempt}
	switch m.Kind {
	case MsgDeliver:
		natural := c.naturalKey(m.Op)
		offset := decodeDelivery(m).Offset
		if ctx.Semantics() == sim.AtMostOnce {
			if !commitFirst(ctx, orderLineSeen, c.Broker, offset, &m) {
				return // a network copy of one delivery, or a crash after the commit
			}
		} else {
			ctx.Put(orderLinePending, natural, m.Op, sim.Record{Value: offset})
		}
		switch c.Insert {
		case "check-then-insert":
			e.Kind = payments.MsgDBGet
			ctx.Send(c.DB, payments.StoreCall{Key: natural}.Encode(e))
		default:
			c.insert(ctx, e, natural)
		}
	case payments.MsgDBGot:
		got := payments.DecodeStoreCall(m)
		if got.Status == payments.StoreFound {
			c.done(ctx, m, got.Key) // the line is there already
			return
		}
		c.insert(ctx, e, got.Key)
	case payments.MsgDBInserted:
		c.done(ctx, m, payments.DecodeStoreCall(m).Key)
	}
}

// naturalKey is the key of (order_id, line_id) for op's line.
func (c *OrderLineConsumer) naturalKey(op sim.OpID) int64 {
	return orderLineKey((int64(op)-1)/c.Lines+1, (int64(op)-1)%c.Lines+1)
}

func (c *OrderLineConsumer) insert(ctx *sim.Context, e envelope, natural int64) {
	e.Kind = payments.MsgDBInsert
	if c.Insert == "upsert" {
		e.Kind = payments.MsgDBInsertUnique
	}
	line := int32((int64(e.Op)-1)%c.Lines + 1)
	ctx.Send(c.DB, payments.StoreCall{Key: natural, State: line, Value: int64(e.Op)}.Encode(e))
}

// done commits the offset of the line's delivery once its statements are
// done (not under at-most-once, which committed first).
func (c *OrderLineConsumer) done(ctx *sim.Context, m sim.Message, natural int64) {
	if ctx.Semantics() == sim.AtMostOnce {
		return
	}
	r, ok := ctx.Get(orderLinePending, natural, m.Op)
	if !ok {
		return // a second copy's statements: its offset was committed with the first
	}
	if ctx.CrashPoint(PointAfterEffect, &m) {
		return
	}
	ctx.Delete(orderLinePending, natural, m.Op)
	ctx.Send(c.Broker, commitOf(r.Value, &m))
}

// buildOrderlineconsumer builds a order-line-consumer node from its options, each declared where it is read.
func buildOrderlineconsumer(a *roles.Args) (sim.Node, []sim.TableSpec) {
	return &OrderLineConsumer{
		Broker: consumerBroker(a),
		DB:     a.Node("db", "the database holding order_lines (role order-lines-db)"),
		Insert: a.Enum("insert", "upsert", []string{"plain", "check-then-insert", "upsert"},
			"plain INSERT, SELECT then INSERT with no unique key, or INSERT … ON CONFLICT (order_id, line_id) DO NOTHING"),
		Lines: a.Int("lines", 2, 1, 999, "lines per order"),
	}, []sim.TableSpec{{Name: "pending", AgeFree: true}, {Name: "seen", Durable: true, AgeFree: true}}
}

// lineDigits is the width, in decimal digits, of the line field of the
// unique index's key.
const lineDigits = 6

// orderLineKey is the unique index's key for the natural key (order, line):
// a different key for every pair. Ranges: order in [0, roles.TupleHiMax(lineDigits)],
// line in [0, 10^lineDigits).
func orderLineKey(order, line int64) int64 { return roles.TupleKey(order, line, lineDigits) }
