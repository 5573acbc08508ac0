package tui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/svg"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// extraFault is a fault kind this test build registers, as a build adding
// one would (CONTRIBUTING, "A new fault kind"): a message on any link is
// stalled for 300 ms. Nothing else names it: its setting, its choice, its
// event and its count come from the fault table, and every view draws its
// event by its render class.
var extraFault = sim.RegisterLinkFault(sim.LinkFaultSpec{Name: "xf-stall", Past: "stalled", Links: sim.AllLinks, Hold: 300,
	Help: "probability that a message is stalled for 300 ms"})

// TestExtraFaultKindInEveryView runs double-billing with the registered
// kind set through the scenario settings (the name a user types), so it
// fires on every send, and checks that the fault count, the JSON fault
// profile and counts, and the text timeline (the trace), the event words,
// the TUI's timeline and lanes, the SVG and the Mermaid diagrams each show
// it with its label, in English and in a translated language.
func TestExtraFaultKindInEveryView(t *testing.T) {
	spec := extraFault.Spec()
	if got, ok := sim.ParseFaultKind("xf-stall"); !ok || got != extraFault {
		t.Fatalf("ParseFaultKind(xf-stall) = %v, %v", got, ok)
	}
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	var faults scenarios.Faults
	if err := faults.Set("xf-stall", "1"); err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 1, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	trace := &sim.Trace{}
	w, err := sim.NewWorld(cfg, sim.NewRandom(1), trace)
	if err != nil {
		t.Fatal(err)
	}
	o := w.Run()
	hit := -1
	for i, e := range trace.Events {
		if e.Kind.Spec().Fault == spec.Choice {
			hit = i
			break
		}
	}
	if hit < 0 {
		t.Fatal("the registered fault never fired at probability 1")
	}
	if n := o.Faults.Of(spec.Choice); n == 0 {
		t.Errorf("fault counts: %d %s", n, spec.Name)
	}
	if got := report.FaultCountParts(o.Faults); len(got) == 0 || !strings.Contains(got[0], "stalled") {
		t.Errorf("fault count parts %q lack 'stalled'", got)
	}
	js, err := json.Marshal(struct {
		P sim.FaultProfile
		C sim.FaultCounts
	}{faults, o.Faults})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"xf_stall":1`) || !strings.Contains(string(js), `"xf-stall":`) {
		t.Errorf("JSON lacks the kind's probability or count: %s", js)
	}
	var back sim.FaultCounts
	if err := json.Unmarshal(js[strings.Index(string(js), `"C":`)+4:len(js)-1], &back); err != nil || back != o.Faults {
		t.Errorf("fault counts do not read back: %v, %+v", err, back)
	}
	if got := profileText(faults); !strings.Contains(got, "xf-stall 1") {
		t.Errorf("the TUI's profile line %q lacks the kind", got)
	}
	if got := faultText(o.Faults); !strings.Contains(got, "stalled") {
		t.Errorf("the TUI's fault counts %q lack the kind", got)
	}

	events := trace.Events
	defer lang.Set(lang.Current())
	for _, l := range []lang.Lang{lang.English, lang.Romanian} {
		lang.Set(l)
		var text, mermaid, diagram bytes.Buffer
		if err := report.WriteTimeline(&text, cfg.Topology, events); err != nil {
			t.Fatal(err)
		}
		if err := report.WriteMermaid(&mermaid, cfg.Topology, events); err != nil {
			t.Fatal(err)
		}
		if err := svg.WriteTrace(&diagram, cfg.Topology, events, "an extra fault kind"); err != nil {
			t.Fatal(err)
		}
		r := result{topo: cfg.Topology, observe: cfg.Observe, words: report.OutcomeWords(sc.Outcome), events: events, outcome: o}
		r.index()
		views := map[string]string{
			"text":       text.String(),
			"trace line": report.Describe(cfg.Topology, &events[hit]),
			"event text": report.EventWords(cfg.Topology, &events[hit], "pay op-1", 0),
			"tui":        timeline{cursor: hit}.view(&r, nil, 200, len(events)),
			"tui lanes":  lanesView(&r, hit, 200, 3),
			"svg":        diagram.String(),
			"mermaid":    mermaid.String(),
		}
		for _, view := range []string{"text", "trace line", "event text", "tui", "tui lanes", "svg", "mermaid"} {
			if !strings.Contains(views[view], spec.Name) {
				t.Errorf("%s: the %s view lacks the %s fault's label", l, view, spec.Name)
			}
		}
		if words := views["event text"]; strings.TrimSpace(words) == spec.Name {
			t.Errorf("%s: %s renders as the bare word %q", l, spec.Name, words)
		}
	}
}
