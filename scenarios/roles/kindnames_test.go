package roles_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// TestKindNamesAreAValue: a test adds a message kind, a timer, a sink and
// a crash point to a copy of the catalog's names and builds a topology
// that names them, while the catalog's own names — the package's — stay
// as they were; and message kinds are not capped at 255 (sixteen bits).
func TestKindNamesAreAValue(t *testing.T) {
	before := slices.Clone(roles.MessageNames())
	names := roles.SharedKindNames().Clone()
	msg, timer, sink, point := names.Message("test-only-message"), names.Timer("test-only-timer"), names.Sink("test-only-sink"), names.Point("test-only-point")
	topo := names.Topology(sim.NodeSpec{Name: "n"})
	for _, c := range [][2]string{
		{topo.MessageName(msg), "test-only-message"}, {topo.TimerName(timer), "test-only-timer"},
		{topo.SinkName(sink), "test-only-sink"}, {topo.PointName(point), "test-only-point"},
	} {
		if c[0] != c[1] {
			t.Errorf("the copy's topology names %q, want %q", c[0], c[1])
		}
	}
	if got := roles.Topology(); slices.Contains(got.Messages, "test-only-message") || !slices.Equal(roles.MessageNames(), before) {
		t.Error("a kind added to a copy reached the catalog's names")
	}
	if again := names.Message("test-only-message"); again != msg {
		t.Errorf("registering a name twice: %d, then %d", msg, again)
	}
	if k := roles.SharedKindNames().Clone().Timer("start-op"); k != roles.TimerStartOp {
		t.Errorf("the shared names and the package's timers disagree: %d, %d", k, roles.TimerStartOp)
	}

	wide := roles.NewKindNames()
	var last sim.MsgKind
	for i := range 300 {
		last = wide.Message(fmt.Sprintf("kind-%d", i))
	}
	if last != 300 || wide.Topology().MessageName(last) != "kind-299" {
		t.Errorf("the 300th message kind is %d (%q), want 300", last, wide.Topology().MessageName(last))
	}
}
