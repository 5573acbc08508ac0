package runs

import (
	"errors"
	"fmt"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestMemoryAccount: a run the account can hold is the run without one,
// event for event; a run whose operations it cannot hold is refused before
// it starts; a run whose trace would pass it is cut at the same event on
// every try and refused with a *MemoryError naming what passed.
func TestMemoryAccount(t *testing.T) {
	sc := lookup(t, "double-billing")
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 20, Faults: sc.Faults}
	free, err := Execute(sc, set, sim.NewRandom(3), Options{})
	if err != nil {
		t.Fatal(err)
	}
	events := len(free.Trace.Events)
	perRun := int64(set.Ops)*opCost + int64(events)*eventCost

	roomy := &Memory{limit: perRun}
	held, err := Execute(sc, set, sim.NewRandom(3), Options{Memory: roomy})
	if err != nil {
		t.Fatalf("an account of exactly one run's cost: %v", err)
	}
	if held.Outcome.Digest != free.Outcome.Digest || roomy.used != perRun {
		t.Errorf("held run: digest %x (free %x), charged %d of %d", held.Outcome.Digest, free.Outcome.Digest, roomy.used, perRun)
	}
	if held.Config.MaxEvents != free.Config.MaxEvents {
		t.Errorf("the run's config carries the account's cap: %d", held.Config.MaxEvents)
	}

	var me *MemoryError
	if _, err := Execute(sc, set, sim.NewRandom(3), Options{Memory: &Memory{limit: int64(set.Ops)*opCost - 1}}); !errors.As(err, &me) || me.What != "20 operations" {
		t.Errorf("too many operations: %v", err)
	}

	var cut []string
	for range 2 {
		tight := &Memory{limit: int64(set.Ops)*opCost + int64(events/2)*eventCost}
		_, err := Execute(sc, set, sim.NewRandom(3), Options{Memory: tight})
		if !errors.As(err, &me) {
			t.Fatalf("a trace past the account (%d events free): %v", events, err)
		}
		cut = append(cut, me.What)
	}
	// The engine records the event that reaches its budget: one past the cap.
	if want := fmt.Sprintf("its trace (%d events kept)", events/2+1); cut[0] != want || cut[1] != want {
		t.Errorf("cut at %q, want %q both times", cut, want)
	}
	if (*Memory)(nil).eventCap() != 0 || (*Memory)(nil).Reserve(1<<20) != nil {
		t.Error("a nil account bounds something")
	}
}
