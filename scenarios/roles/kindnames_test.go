package roles_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// TestKindNamesAreAValue: a test adds a message kind, a timer, a sink and
// a crash point to a copy of a catalog's names and builds a topology
// that names them, while the catalog's own names stay as they were; and
// message kinds are not capped at 255 (sixteen bits).
func TestKindNamesAreAValue(t *testing.T) {
	c := roles.NewCatalog()
	payments.Register(c)
	before := slices.Clone(c.Kinds().MessageNames())
	names := c.Kinds().Clone()
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
	if got := c.Kinds().Topology(); slices.Contains(got.Messages, "test-only-message") || !slices.Equal(c.Kinds().MessageNames(), before) {
		t.Error("a kind added to a copy reached the catalog's names")
	}
	if again := names.Message("test-only-message"); again != msg {
		t.Errorf("registering a name twice: %d, then %d", msg, again)
	}
	if k := c.Kinds().Clone().Timer("start-op"); k != roles.TimerStartOp {
		t.Errorf("the catalog's names and the package's timers disagree: %d, %d", k, roles.TimerStartOp)
	}
	if err := c.Clone().CheckNumbering(); err != nil {
		t.Errorf("a clone of the catalog the kinds were numbered in: %v", err)
	}

	wide := roles.NewKindNames()
	var last sim.MsgKind
	var timer300 sim.TimerKind
	var sink300 sim.SinkID
	var point300 sim.PointID
	for i := range 300 {
		last = wide.Message(fmt.Sprintf("kind-%d", i))
		timer300 = wide.Timer(fmt.Sprintf("timer-%d", i))
		sink300 = wide.Sink(fmt.Sprintf("sink-%d", i))
		point300 = wide.Point(fmt.Sprintf("point-%d", i))
	}
	wt := wide.Topology()
	if last != 300 || wt.MessageName(last) != "kind-299" {
		t.Errorf("the 300th message kind is %d (%q), want 300", last, wt.MessageName(last))
	}
	// Timers, sinks and crash points are sixteen bits too, and so is the
	// trace's Label that carries them.
	if wt.TimerName(timer300) != "timer-299" || wt.SinkName(sink300) != "sink-299" || wt.PointName(point300) != "point-299" {
		t.Errorf("the 300th timer, sink and point: %q %q %q", wt.TimerName(timer300), wt.SinkName(sink300), wt.PointName(point300))
	}
	fire, effect, crash := sim.Event{Label: uint16(timer300)}, sim.Event{Label: uint16(sink300)}, sim.Event{Label: uint16(point300)}
	if fire.Timer() != timer300 || effect.Sink() != sink300 || crash.Point() != point300 {
		t.Errorf("an event's label does not carry the 300th timer, sink or point: %d %d %d", fire.Timer(), effect.Sink(), crash.Point())
	}
}

// TestKindsNumberedFromTheCatalog: a family's kind variables take the
// numbers of the catalog it is registered in, in the order its Register
// gives (names registered before it shift them); a catalog whose numbers
// the variables no longer hold is refused, not run with the wrong kinds.
func TestKindsNumberedFromTheCatalog(t *testing.T) {
	plain := roles.NewCatalog()
	payments.Register(plain)
	if got := plain.Kinds().Topology().MessageName(payments.MsgPayRequest); got != "pay" {
		t.Fatalf("payments.MsgPayRequest names %q in its catalog, want pay", got)
	}
	first := payments.MsgPayRequest

	shifted := roles.NewCatalog()
	shifted.Kinds().Message("registered-first")
	payments.Register(shifted)
	if payments.MsgPayRequest != first+1 || shifted.Kinds().Topology().MessageName(payments.MsgPayRequest) != "pay" {
		t.Errorf("after one name registered first, MsgPayRequest is %d (%q), want %d (pay)", payments.MsgPayRequest,
			shifted.Kinds().Topology().MessageName(payments.MsgPayRequest), first+1)
	}
	if err := plain.CheckNumbering(); err == nil {
		t.Error("the first catalog passed CheckNumbering after the kinds were numbered in another")
	}
	if err := shifted.CheckNumbering(); err != nil {
		t.Errorf("the catalog the kinds were numbered in: %v", err)
	}
	again := roles.NewCatalog()
	payments.Register(again)
	if err := plain.CheckNumbering(); err != nil || payments.MsgPayRequest != first {
		t.Errorf("registered again in the first order: MsgPayRequest %d (want %d), the first catalog: %v", payments.MsgPayRequest, first, err)
	}
}
