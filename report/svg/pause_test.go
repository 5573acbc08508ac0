package svg

import (
	"bytes"
	"github.com/oncesim/once/report"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// TestPauseInEveryTraceView pauses double-billing's service after the
// charge and checks that the text timeline, the Mermaid diagram and the
// SVG space-time diagram all show the pause and the resume.
func TestPauseInEveryTraceView(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	var faults scenarios.Faults
	faults.Probability[sim.FaultPause] = 0.5
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 1, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	service, _ := cfg.Topology.NodeByName("service")
	point, _ := cfg.Topology.PointByName("after-charge")
	plan := []sim.Fault{{Kind: sim.ChoicePause, Node: service, Peer: sim.NoNode, Msg: payments.MsgChargeResult, Op: 1, Attempt: 1, Point: point, Occurrence: 1, Value: 1}}
	trace := &sim.Trace{}
	w, err := sim.NewWorld(cfg, sim.NewScripted(plan, nil), trace)
	if err != nil {
		t.Fatal(err)
	}
	if out := w.Run(); out.Faults.Of(sim.ChoicePause) != 1 {
		t.Fatalf("the plan paused %d times, want 1", out.Faults.Of(sim.ChoicePause))
	}
	var text strings.Builder
	for i := range trace.Events {
		text.WriteString(report.Describe(cfg.Topology, &trace.Events[i]) + "\n")
	}
	var mermaid, svg bytes.Buffer
	if err := report.WriteMermaid(&mermaid, cfg.Topology, trace.Events); err != nil {
		t.Fatal(err)
	}
	if err := WriteTrace(&svg, cfg.Topology, trace.Events, "pause"); err != nil {
		t.Fatal(err)
	}
	for view, want := range map[string][]string{
		"text":    {"PAUSE    at after-charge for 5s", "RESUME"},
		"mermaid": {"Note over service: PAUSE at after-charge for 5s", "Note over service: resume"},
		"svg":     {"PAUSE at after-charge for 5s (op-1 #1)", "resume: state kept", "paused until resume", svgPauseFill},
	} {
		got := map[string]string{"text": text.String(), "mermaid": mermaid.String(), "svg": svg.String()}[view]
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("the %s view lacks %q", view, w)
			}
		}
	}
}
