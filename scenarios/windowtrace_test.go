package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// exploreVerdict explores name with ≤ maxFaults faults of kinds (2
// operations) and reports whether exactly-once holds; it fails the test
// when the search was cut short.
func exploreVerdict(t *testing.T, name string, sem sim.Semantics, kinds string, maxFaults int, params map[string]string) (*sim.Config, *search.Result) {
	t.Helper()
	cfg := scenarioExploreConfig(t, name, sem, kinds, params)
	res, err := search.Explore(cfg, search.Options{MaxFaults: maxFaults, Promise: sim.ExactlyOne})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete {
		t.Fatalf("%s %v %s ≤%d: incomplete (%s)", name, params, kinds, maxFaults, res.Cut)
	}
	return cfg, res
}

// scenarioExploreConfig is exploreConfig for 2 operations with the
// scenario's own fault durations (pause-ms, late-ms), as once explore
// uses them.
func scenarioExploreConfig(t *testing.T, name string, sem sim.Semantics, kinds string, params map[string]string) *sim.Config {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	faults, _, err := scenarios.ExploreFaults(kinds)
	if err != nil {
		t.Fatal(err)
	}
	faults.Duration = sc.Faults.Duration
	cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: 2, Faults: faults, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// replayChoices runs cfg with the explorer's choices (0 once they run
// out: no more faults) and returns its trace and outcome.
func replayChoices(t *testing.T, cfg *sim.Config, choices []int) ([]sim.Event, *sim.Outcome) {
	t.Helper()
	var tr sim.Trace
	w, err := sim.NewWorld(cfg, &sim.Sequence{Answers: choices}, &tr)
	if err != nil {
		t.Fatal(err)
	}
	out := w.Run()
	return tr.Events, out
}

// sent is one send of a trace: its position and the message.
type sent struct {
	seq uint32
	msg sim.Message
}

// sendsOf returns the messages of kind (its name, as the trace prints it)
// that node sent, in trace order.
func sendsOf(t *testing.T, cfg *sim.Config, events []sim.Event, node, kind string) []sent {
	t.Helper()
	k, ok := cfg.Topology.MessageByName(kind)
	if !ok {
		t.Fatalf("no message kind %q", kind)
	}
	var out []sent
	for _, e := range events {
		if e.Kind == sim.EvSend && cfg.Topology.NodeName(e.Node) == node && e.Msg.Kind == k {
			out = append(out, sent{e.Seq, e.Msg})
		}
	}
	return out
}

// effectsPerOp returns each operation's effect count.
func effectsPerOp(out *sim.Outcome) map[sim.OpID]int32 {
	m := map[sim.OpID]int32{}
	for _, r := range out.Ops {
		m[r.Op] = r.Effects
	}
	return m
}
