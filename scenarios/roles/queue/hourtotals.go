package queue

import (
	"slices"
	"strconv"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// hourTotals is the invariant "right-hourly-totals": when the job has
// finished, the rows of the traced hourly_totals tables sum, per hour, to
// the events of that hour. It learns each event's hour and amount from the
// input log's answers as they are delivered (the input is the truth), and
// each row from its writes (State = the hour, Value = the total).
type hourTotals struct {
	tables []bool     // by node: its first table is an hourly_totals table
	events [][2]int64 // by op: {hour + 1, amount}; {0, 0} = not seen
	rows   [][3]int64 // {key, hour, total}, sorted by key
}

func newHourTotals(topo *sim.Topology) *hourTotals {
	h := &hourTotals{tables: make([]bool, len(topo.Nodes))}
	for n, spec := range topo.Nodes {
		h.tables[n] = len(spec.Tables) > 0 && spec.Tables[0].Name == "hourly_totals" && spec.Tables[0].Traced
	}
	return h
}

// Name implements sim.Invariant.
func (h *hourTotals) Name() string { return "right-hourly-totals" }

// Record implements sim.Recorder.
func (h *hourTotals) Record(e *sim.Event) {
	switch {
	case e.Kind == sim.EvDeliver && e.Msg.Kind == MsgInputRecord && e.Msg.Status == roles.StatusOK && e.Msg.Op > 0:
		op := int(e.Msg.Op)
		for len(h.events) <= op {
			h.events = append(h.events, [2]int64{})
		}
		in := decodeFetched(e.Msg)
		h.events[op] = [2]int64{in.Hour + 1, in.Record}
	case e.Kind == sim.EvStorePut && e.Table() == aggOutput && int(e.Node) >= 0 && int(e.Node) < len(h.tables) && h.tables[e.Node]:
		row := [3]int64{e.Msg.Key, int64(e.Rec.State), e.Rec.Value}
		i, found := slices.BinarySearchFunc(h.rows, row, func(a, b [3]int64) int { return int(a[0] - b[0]) })
		if found {
			h.rows[i] = row
		} else {
			h.rows = slices.Insert(h.rows, i, row)
		}
	}
}

// Violation implements sim.Invariant: judged on a finished run only (a cut
// run has hours still to write).
func (h *hourTotals) Violation(finished bool) string { return h.ViolationDetail(finished).English }

// ViolationDetail implements sim.ViolationDetailer.
func (h *hourTotals) ViolationDetail(finished bool) sim.Violation {
	if !finished {
		return sim.Violation{}
	}
	want, got := map[int64]int64{}, map[int64]int64{}
	for _, ev := range h.events {
		if ev[0] > 0 {
			want[ev[0]-1] += ev[1]
		}
	}
	for _, r := range h.rows {
		got[r[1]] += r[2]
	}
	hours := make([]int64, 0, len(want))
	for hour := range want {
		hours = append(hours, hour)
	}
	slices.Sort(hours)
	for _, hour := range hours {
		if got[hour] != want[hour] {
			name, holds, sum := hourName(hour), strconv.FormatInt(got[hour], 10), strconv.FormatInt(want[hour], 10)
			return sim.NewViolation("violation.right-hourly-totals", 0,
				"hour "+name+" holds "+holds+" in hourly_totals, but its events sum to "+sum,
				"Hour", name, "Holds", holds, "Sum", sum)
		}
	}
	return sim.Violation{}
}

// hourName spells an hour as the trace does ("03:00").
func hourName(h int64) string {
	if h >= 0 && h < int64(len(hourNames)) {
		return hourNames[h]
	}
	return "#" + strconv.FormatInt(h, 10)
}

// Clone implements sim.Invariant.
func (h *hourTotals) Clone() sim.Invariant {
	c := *h
	c.events = slices.Clone(h.events)
	c.rows = slices.Clone(h.rows)
	return &c
}

// AppendState implements sim.Invariant.
func (h *hourTotals) AppendState(b []byte) []byte {
	for _, ev := range h.events {
		b = strconv.AppendInt(b, ev[0], 10)
		b = append(b, ',')
	}
	b = append(b, '|')
	for _, r := range h.rows {
		for _, v := range r {
			b = strconv.AppendInt(b, v, 10)
			b = append(b, ',')
		}
	}
	return b
}

func registerHourtotals(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "right-hourly-totals",
		Doc:  "when the job has finished, hourly_totals sums, per event-time hour, to that hour's events: a late event lost, or a partial window written over a full one, breaks it",
		New:  func(topo *sim.Topology) sim.Invariant { return newHourTotals(topo) },
	})
}
