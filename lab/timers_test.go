package lab_test

import (
	"testing"

	"github.com/oncesim/once/sim"
)

// A cancelled timer goes through the engine's cancellation: it never
// fires, so the trace shows only the timers that were handed over.
func TestCancelledTimerNeitherFiresNorShows(t *testing.T) {
	l := newLab(t, "at-least-once-duplicate", "consumer", testNode("timer-cancel"), nil)
	l.Settings.Ops = 2
	trace := &sim.Trace{}
	r, err := l.Run(sim.Idempotent, sim.Defaults{}, trace)
	if err != nil {
		t.Fatal(err)
	}
	consumer, _ := r.Config.Topology.NodeByName("consumer")
	fired, handed := 0, 0
	for _, e := range trace.Events {
		if e.Kind == sim.EvTimerFire && e.Node == consumer {
			fired++
		}
	}
	for _, s := range r.Steps {
		if len(s.Event) > 6 && s.Event[:6] == "timer " {
			handed++
		}
	}
	if handed == 0 || fired != handed {
		t.Errorf("the trace shows %d timers fire at the consumer, %d were handed to it: want the same, the cancelled ones in neither", fired, handed)
	}
}
