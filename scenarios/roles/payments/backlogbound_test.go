package payments

import (
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// TestUnknownBacklogBounded: the invariant breaks when more than
// BacklogBound intents are UNKNOWN at once, and a resolved one leaves.
func TestUnknownBacklogBounded(t *testing.T) {
	topo := &sim.Topology{Nodes: []sim.NodeSpec{{Name: "service", Tables: []sim.TableSpec{{Name: "keys", Durable: true, Traced: true, States: []string{"", "PROCESSING", "UNKNOWN", "COMPLETED"}}}}}}
	put := func(key int64, state int32) *sim.Event {
		e := &sim.Event{Kind: sim.EvStorePut, Rec: sim.Record{State: state}}
		e.Msg.Key = key
		return e
	}
	x := &backlogBounded{unknownBacklog: newUnknownBacklog(topo)}
	for k := int64(1); k <= BacklogBound; k++ {
		x.Record(put(k, 2))
	}
	x.Record(put(1, 3)) // resolved: COMPLETED
	x.Record(put(BacklogBound+1, 2))
	if v := x.Violation(true); v != "" {
		t.Fatalf("%d UNKNOWN at most, yet: %s", BacklogBound, v)
	}
	c := x.Clone()
	x.Record(put(BacklogBound+2, 2))
	if v := x.Violation(true); !strings.Contains(v, "outcomes UNKNOWN at once") {
		t.Fatalf("%d UNKNOWN at once: violation %q", BacklogBound+1, v)
	}
	if v := c.Violation(true); v != "" {
		t.Fatalf("the clone shares state with the original: %q", v)
	}
}
