package tui

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestTUILabelsEveryFaultKind checks that the TUI's profile line and its
// fault counts name every kind of the table, with the reports' labels.
func TestTUILabelsEveryFaultKind(t *testing.T) {
	for k := range sim.FaultKinds {
		spec := &sim.FaultKinds[k]
		var f scenarios.Faults
		f.Probability[k] = 0.5
		if got := profileText(nil, f); !strings.HasPrefix(got, spec.Name+" 0.5") {
			t.Errorf("profile with only %s: %q", spec.Name, got)
		}
	}
	for _, kind := range sim.FaultChoiceKinds() {
		// One count of kind, through the checker that reports read.
		c := sim.NewChecker(sim.Observation{}, 1)
		e := sim.Event{Node: 0, Peer: 1}
		switch {
		case kind == sim.ChoiceLoss:
			e.Kind, e.Reason = sim.EvDrop, sim.DropLoss
		default:
			e.Kind, _ = parseEventKind(kind.String())
		}
		c.Record(&e)
		if got := faultText(nil, c.Faults()); got != "1 "+kind.Past() {
			t.Errorf("%s: fault text %q, want %q", kind, got, "1 "+kind.Past())
		}
	}
}

// parseEventKind finds the trace event a fault choice leaves (crash → EvCrash).
func parseEventKind(name string) (sim.EventKind, bool) {
	for k := sim.EventKind(1); k.String() != "unknown"; k++ {
		if k.String() == name {
			return k, true
		}
	}
	return 0, false
}
