package queue

import (
	"strconv"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

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

func init() {
	roles.RegisterInvariant(&roles.InvariantSpec{
		Name: "right-totals",
		Doc:  "every booking's paid total ends as its payment's amount: a total that changes again counted a payment twice",
		New:  func(topo *sim.Topology) sim.Invariant { return newRightTotals(topo) },
	})
}
