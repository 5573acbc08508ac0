package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// stallKinds returns a copy of the built-in kinds with xf-stall added, as
// a test or a build adding a fault kind would (CONTRIBUTING, "A new fault
// kind"): a message on any link is stalled for 300 ms. Nothing else names
// it: its setting, its choice, its event and its count come from the
// registry's tables, and every view draws its event by its render class.
// No package variable changes: the built-in kinds stay as they are.
func stallKinds() (*sim.Registry, sim.FaultKind) {
	kinds := sim.Builtin()
	stall := kinds.AddLinkFault(sim.LinkFaultSpec{Name: "xf-stall", Past: "stalled", Links: sim.AllLinks, Hold: 300,
		Help: "probability that a message is stalled for 300 ms"})
	return kinds, stall
}

// TestExtraFaultKindInEveryView runs double-billing with the registered
// kind set through the scenario settings (the name a user types), so it
// fires on every send, and checks that the fault count, the JSON fault
// profile and counts, and the text timeline (the trace), the event words,
// the TUI's timeline and lanes, the SVG and the Mermaid diagrams each show
// it with its label, in English and in a translated language.
func TestExtraFaultKindInEveryView(t *testing.T) {
	kinds, extraFault := stallKinds()
	spec := kinds.FaultKind(extraFault)
	if got, ok := kinds.ParseFaultKind("xf-stall"); !ok || got != extraFault {
		t.Fatalf("ParseFaultKind(xf-stall) = %v, %v", got, ok)
	}
	if _, ok := sim.ParseFaultKind("xf-stall"); ok {
		t.Fatal("the kind added to a copy reached the built-in kinds")
	}
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	var faults scenarios.Faults
	if err := kinds.Set(&faults, "xf-stall", "1"); err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 1, Faults: faults, Kinds: kinds})
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
		if kinds.EventSpec(e.Kind).Fault == spec.Choice {
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
	if got := report.FaultCountPartsIn(kinds, o.Faults); len(got) == 0 || !strings.Contains(got[0], "stalled") {
		t.Errorf("fault count parts %q lack 'stalled'", got)
	}
	profile, err := kinds.MarshalProfile(faults)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := kinds.MarshalCounts(o.Faults)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(profile), `"xf_stall":1`) || !strings.Contains(string(counts), `"xf-stall":`) {
		t.Errorf("JSON lacks the kind's probability or count: %s %s", profile, counts)
	}
	if builtin, _ := json.Marshal(o.Faults); strings.Contains(string(builtin), "xf-stall") {
		t.Errorf("the built-in kinds' JSON names a kind of a copy: %s", builtin)
	}
	var back sim.FaultCounts
	if err := kinds.UnmarshalCounts(counts, &back); err != nil || back != o.Faults {
		t.Errorf("fault counts do not read back: %v, %+v", err, back)
	}
	if got := profileText(kinds, faults); !strings.Contains(got, "xf-stall 1") {
		t.Errorf("the TUI's profile line %q lacks the kind", got)
	}
	if got := faultText(kinds, o.Faults); !strings.Contains(got, "stalled") {
		t.Errorf("the TUI's fault counts %q lack the kind", got)
	}

	events := trace.Events
	defer lang.Set(lang.Current())
	for _, l := range []lang.Lang{lang.English, lang.Romanian} {
		lang.Set(l)
		text, mermaid, diagram := rendered(t, cfg.Topology, events, "an extra fault kind")
		r := result{topo: cfg.Topology, observe: cfg.Observe, words: report.OutcomeWords(sc.Outcome), events: events, outcome: o}
		r.index()
		views := map[string]string{
			"text":       text,
			"trace line": report.Describe(cfg.Topology, &events[hit]),
			"event text": report.EventWords(cfg.Topology, &events[hit], "pay op-1", 0),
			"tui":        timeline{cursor: hit}.view(&r, nil, 200, len(events)),
			"tui lanes":  lanesView(&r, hit, 200, 3),
			"svg":        diagram,
			"mermaid":    mermaid,
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
