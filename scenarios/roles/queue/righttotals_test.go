package queue

import (
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// TestRightTotals: a booking's total may rise up to what was paid, never
// above it (a payment counted twice) and never back (a stale set).
func TestRightTotals(t *testing.T) {
	topo := &sim.Topology{Nodes: []sim.NodeSpec{{Name: "consumer", Tables: []sim.TableSpec{{Name: "totals", Traced: true}, {Name: "seen"}}}}}
	put := func(op sim.OpID, booking int64, payment int32, total int64) sim.Event {
		e := sim.Event{Kind: sim.EvStorePut, Label: 0, Rec: sim.Record{Value: total, State: payment}}
		e.Msg.Op, e.Msg.Key = op, booking
		return e
	}
	// Booking 1 is ops 1 and 2 (101 + 102 = 203).
	for _, c := range []struct {
		name string
		puts []sim.Event
		want string
	}{
		{"in order", []sim.Event{put(1, 1, 1, 101), put(2, 1, 2, 203)}, ""},
		{"payment 2's total first, covering payment 1", []sim.Event{put(2, 1, 2, 203)}, ""},
		{"an increment that lost payment 1", []sim.Event{put(2, 1, 2, 102)}, ""},
		{"a stale set", []sim.Event{put(2, 1, 2, 203), put(1, 1, 1, 101)}, "went back from 203 to 101"},
		{"an increment applied twice", []sim.Event{put(1, 1, 1, 101), put(2, 1, 2, 203), put(2, 1, 2, 305)}, "shows 305 paid"},
		{"a put in another table", []sim.Event{func() sim.Event { e := put(2, 1, 2, 999); e.Label = 1; return e }()}, ""},
	} {
		inv := newRightTotals(topo)
		for i := range c.puts {
			inv.Record(&c.puts[i])
		}
		got := inv.Violation(true)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: violation %q, want %q", c.name, got, c.want)
		}
	}
}
