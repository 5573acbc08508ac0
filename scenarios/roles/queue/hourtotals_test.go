package queue

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// TestRightHourlyTotals: the table must sum, per hour, to the hour's
// events — judged once the job has finished.
func TestRightHourlyTotals(t *testing.T) {
	topo := &sim.Topology{Nodes: []sim.NodeSpec{{Name: "input"}, {Name: "aggregator", Tables: []sim.TableSpec{{Name: "hourly_totals", Traced: true}}}}}
	event := func(op sim.OpID, hour int64) sim.Event {
		e := sim.Event{Kind: sim.EvDeliver, Node: 1}
		e.Msg = fetched{Position: int64(op), Status: roles.StatusOK, Record: roles.Payload(op), Hour: hour}.encode(envelope{Kind: MsgInputRecord, Op: op})
		return e
	}
	row := func(key, hour, total int64) sim.Event {
		e := sim.Event{Kind: sim.EvStorePut, Node: 1, Label: uint16(aggOutput), Rec: sim.Record{State: int32(hour), Value: total}}
		e.Msg.Key = key
		return e
	}
	// Events 1, 2 and the late 4 are 00:00 (101+102+104 = 307); 3 is 01:00.
	input := []sim.Event{event(1, 0), event(2, 0), event(3, 1), event(4, 0)}
	for _, c := range []struct {
		name string
		rows []sim.Event
		want string
	}{
		{"recomputed", []sim.Event{row(0, 0, 203), row(1, 1, 103), row(0, 0, 307)}, ""},
		{"appended, with a row for the late event", []sim.Event{row(1, 0, 203), row(2, 1, 103), row(3, 0, 104)}, ""},
		{"a partial window over the full one", []sim.Event{row(0, 0, 203), row(1, 1, 103), row(0, 0, 104)}, "hour 00:00 holds 104"},
		{"the late event ignored", []sim.Event{row(0, 0, 203), row(1, 1, 103)}, "but its events sum to 307"},
		{"appended twice", []sim.Event{row(1, 0, 307), row(2, 1, 103), row(3, 0, 307), row(4, 1, 103)}, "hour 00:00 holds 614"},
	} {
		inv := newHourTotals(topo)
		for _, e := range append(append([]sim.Event(nil), input...), c.rows...) {
			inv.Record(&e)
		}
		got := inv.Violation(true)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: violation %q, want %q", c.name, got, c.want)
		}
		if cut := inv.Violation(false); cut != "" {
			t.Errorf("%s: a cut run is judged: %q", c.name, cut)
		}
	}
}
