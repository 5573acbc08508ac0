package sim_test

import (
	"reflect"
	"testing"

	"github.com/oncesim/once/sim"
)

// TestCheckerIgnores: Checker.Ignores names exactly the event kinds that
// Record leaves without a trace, so a quiet world (sim.Runs without the
// digest) may count those events without building them. Every kind is
// recorded with every field aimed at the checker (the origin and
// processor node, the request kind, an observed sink, a loss).
func TestCheckerIgnores(t *testing.T) {
	obs := sim.Observation{Origin: 0, Request: 1, Processor: 0, Sinks: []sim.SinkID{0}}
	for k := sim.EvSend; k <= sim.EvPreempt; k++ {
		c := sim.NewChecker(obs, 1)
		fresh := sim.NewChecker(obs, 1)
		c.Record(&sim.Event{Kind: k, Node: 0, Peer: 0, Reason: sim.DropLoss, Label: 0,
			Msg: sim.Message{Kind: 1, Op: 1, Attempt: 1, Value: 7, Status: 201}})
		same := reflect.DeepEqual(c.Tally(1), fresh.Tally(1)) && c.Faults() == fresh.Faults()
		if same != c.Ignores(k) {
			t.Errorf("%s: Ignores %v, but recording it changed the checker: %v", k, c.Ignores(k), !same)
		}
	}
}
