package queue

import (
	"strconv"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// rightTotals is the invariant "right-totals", read from the writes of
// every traced "totals" table (a balance consumer's): a booking's stored
// total never goes back (a stale set overwrote a newer one), and never
// exceeds the sum of the booking's payments up to the latest one written
// (a payment counted twice). The row says which payment of its booking
// wrote it (State), so the booking's first operation is op - State + 1.
type rightTotals struct {
	tables [][]bool   // by node, by table: a "totals" table
	last   []int64    // by booking: the stored total, 0 = none yet
	paid   []int64    // by booking: the sum of its payments up to the latest written
	upTo   []sim.OpID // by booking: the latest payment written
	wrong  sim.Violation
}

func newRightTotals(topo *sim.Topology) *rightTotals {
	r := &rightTotals{tables: make([][]bool, len(topo.Nodes))}
	for n, spec := range topo.Nodes {
		r.tables[n] = make([]bool, len(spec.Tables))
		for t, table := range spec.Tables {
			r.tables[n][t] = table.Name == "totals" && table.Traced
		}
	}
	return r
}

// Name implements sim.Invariant.
func (r *rightTotals) Name() string { return "right-totals" }

func (r *rightTotals) watched(e *sim.Event) bool {
	n, t := int(e.Node), int(e.Label)
	return e.Kind == sim.EvStorePut && n >= 0 && n < len(r.tables) && t < len(r.tables[n]) && r.tables[n][t]
}

// Record implements sim.Recorder.
func (r *rightTotals) Record(e *sim.Event) {
	if !r.watched(e) || e.Msg.Key <= 0 || e.Msg.Op <= 0 || e.Rec.State <= 0 {
		return
	}
	b := int(e.Msg.Key)
	for len(r.last) <= b {
		r.last, r.paid, r.upTo = append(r.last, 0), append(r.paid, 0), append(r.upTo, 0)
	}
	if e.Msg.Op > r.upTo[b] {
		first := e.Msg.Op - sim.OpID(e.Rec.State) + 1
		r.upTo[b], r.paid[b] = e.Msg.Op, cumulative(first, e.Msg.Op)
	}
	total, booking := e.Rec.Value, strconv.Itoa(b)
	switch {
	case !r.wrong.Held():
	case total < r.last[b]:
		last, now, at := strconv.FormatInt(r.last[b], 10), strconv.FormatInt(total, 10), e.At.String()
		r.wrong = sim.NewViolation("violation.right-totals.back", 0,
			"booking "+booking+"'s total went back from "+last+" to "+now+" at "+at+": an older payment overwrote a newer total",
			"Booking", booking, "From", last, "To", now, "At", at)
	case total > r.paid[b]:
		now, at, paid := strconv.FormatInt(total, 10), e.At.String(), strconv.FormatInt(r.paid[b], 10)
		r.wrong = sim.NewViolation("violation.right-totals.over", 0,
			"booking "+booking+" shows "+now+" paid at "+at+", but its payments sum to "+paid+": a payment counted twice",
			"Booking", booking, "Total", now, "At", at, "Paid", paid)
	}
	r.last[b] = total
}

// Violation implements sim.Invariant.
func (r *rightTotals) Violation(bool) string { return r.wrong.English }

// ViolationDetail implements sim.ViolationDetailer.
func (r *rightTotals) ViolationDetail(bool) sim.Violation { return r.wrong }

// Clone implements sim.Invariant.
func (r *rightTotals) Clone() sim.Invariant {
	c := *r
	c.last = append([]int64(nil), r.last...)
	c.paid = append([]int64(nil), r.paid...)
	c.upTo = append([]sim.OpID(nil), r.upTo...)
	return &c
}

// AppendState implements sim.Invariant.
func (r *rightTotals) AppendState(b []byte) []byte {
	for i := range r.last {
		b = strconv.AppendInt(b, r.last[i], 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(r.upTo[i]), 10)
		b = append(b, ',')
	}
	if !r.wrong.Held() {
		b = append(b, '!')
	}
	return b
}

func registerRighttotals(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "right-totals",
		Doc:  "a booking's paid total never goes back (a stale set) and never exceeds the sum of its payments (a payment counted twice)",
		New:  func(topo *sim.Topology) sim.Invariant { return newRightTotals(topo) },
	})
}
