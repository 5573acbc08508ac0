package queue

import (
	"strconv"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

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
	lineRows    sim.TableID = iota // row id → orderLineRow
	lineUnique                     // the unique index: orderLineKey(order_id, line_id) → rowIDRow
	lineCounter                    // row 0: rowIDRow, the last row id
	lineSeen
)

// lineDigits is the width, in decimal digits, of the line field of the
// unique index's key.
const lineDigits = 6

// orderLineKey is the unique index's key for the natural key (order, line):
// a different key for every pair. Ranges: order in [0, roles.TupleHiMax(lineDigits)],
// line in [0, 10^lineDigits).
func orderLineKey(order, line int64) int64 { return roles.TupleKey(order, line, lineDigits) }

// Start does nothing: the broker redelivers what was not committed.
func (w *OrderLineWriter) Start(*sim.Context) {}

// Timer is unused.
func (w *OrderLineWriter) Timer(*sim.Context, sim.Timer) {}

// Receive inserts the line of a delivered record.
func (w *OrderLineWriter) Receive(ctx *sim.Context, m sim.Message) { w.receive(ctx, m, w) }

func (w *OrderLineWriter) apply(ctx *sim.Context, m *sim.Message) {
	order, line := (int64(m.Op)-1)/w.Lines+1, (int64(m.Op)-1)%w.Lines+1
	natural := orderLineKey(order, line)
	upsert := pickByDesign(ctx, w.Insert, "plain", "upsert") == "upsert"
	if upsert {
		if _, conflict := ctx.Get(lineUnique, natural, m.Op); conflict {
			return // ON CONFLICT DO NOTHING
		}
	}
	rec, _ := ctx.Get(lineCounter, 0, m.Op)
	n := decodeRowIDRow(rec)
	n.RowID++
	n.At = 0
	ctx.Put(lineCounter, 0, m.Op, n.encode())
	ctx.Put(lineRows, n.RowID, m.Op, orderLineRow{Line: int32(line), Order: order}.encode())
	if upsert {
		ctx.Put(lineUnique, natural, m.Op, rowIDRow{RowID: n.RowID}.encode())
	}
	ctx.Effect(SinkOrderLines, m.Op, n.RowID)
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
	orderLineWriterBroker = roles.Node("broker", "where commits go")
	orderLineWriterInsert = roles.Enum("insert", "auto", []string{"auto", "plain", "upsert"}, "plain insert or upsert on the natural key; auto: plain under amo and alo, upsert under idem")
	orderLineWriterLines  = roles.Int("lines", 2, 1, 999, "lines per order")
)

func init() {
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
}
