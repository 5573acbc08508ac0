package tui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/svg"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// extraEventKinds returns a copy of the built-in kinds with event kinds
// added, one in each render class a fault leaves (a lost, a meddled-with
// message, a node stopping and starting) and a store kind: the views know
// them only by their class and their name in the registry the trace's
// topology carries.
func extraEventKinds() (*sim.Registry, []sim.EventKind) {
	kinds := sim.Builtin()
	return kinds, []sim.EventKind{
		kinds.AddEventKind(sim.EventKindSpec{Name: "xk-vanish", Class: sim.ClassDrop}),
		kinds.AddEventKind(sim.EventKindSpec{Name: "xk-reorder", Class: sim.ClassInFlight}),
		kinds.AddEventKind(sim.EventKindSpec{Name: "xk-freeze", Label: sim.LabelPoint, Class: sim.ClassStop}),
		kinds.AddEventKind(sim.EventKindSpec{Name: "xk-thaw", Class: sim.ClassStart}),
		kinds.AddEventKind(sim.EventKindSpec{Name: "xk-scan", Label: sim.LabelTable, Class: sim.ClassStore}),
	}
}

// TestExtraEventKindInEveryView appends one event of each extra kind to
// double-billing's trace and checks that the text timeline (the trace),
// the TUI's timeline and lanes, the SVG and the Mermaid diagrams each show
// it with its label, in English and in a translated language: a new kind
// never renders as a bare word nor goes missing from a view.
func TestExtraEventKindInEveryView(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	kinds, extraKinds := extraEventKinds()
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 1, Kinds: kinds})
	if err != nil {
		t.Fatal(err)
	}
	trace := &sim.Trace{}
	w, err := sim.NewWorld(cfg, sim.NewScripted(nil, nil), trace)
	if err != nil {
		t.Fatal(err)
	}
	w.Run()
	events := trace.Events
	var send sim.Event
	for _, e := range events {
		if e.Kind == sim.EvSend {
			send = e
			break
		}
	}
	service, _ := cfg.Topology.NodeByName("service")
	last := events[len(events)-1].At
	for k, kind := range extraKinds {
		e := send
		e.Kind, e.At, e.Seq, e.Reason = kind, last+sim.Time(k+1), uint32(len(events)), sim.DropLoss
		if c := kinds.EventClass(kind); c == sim.ClassStop || c == sim.ClassStart || c == sim.ClassStore {
			e.Node, e.Peer, e.Label = service, sim.NoNode, 0
		}
		events = append(events, e)
	}
	first := len(trace.Events)

	defer lang.Set(lang.Current())
	for _, l := range []lang.Lang{lang.English, lang.Romanian} {
		lang.Set(l)
		text, mermaid, diagram := rendered(t, cfg.Topology, events, "extra kinds")
		r := result{topo: cfg.Topology, observe: cfg.Observe, words: report.OutcomeWords(sc.Outcome), events: events, outcome: &sim.Outcome{}}
		r.index()
		timeline := timeline{cursor: 0}.view(&r, nil, 200, len(events))
		for k, kind := range extraKinds {
			label := kinds.EventName(kind)
			i := first + k
			views := map[string]string{
				"text":       text,
				"trace line": report.Describe(cfg.Topology, &events[i]),
				"event text": report.EventWords(cfg.Topology, &events[i], "pay op-1", 0),
				"tui":        timeline,
				"tui lanes":  lanesView(&r, i, 200, 3),
				"svg":        diagram,
				"mermaid":    mermaid,
			}
			for _, view := range []string{"text", "trace line", "event text", "tui", "tui lanes", "svg", "mermaid"} {
				if !strings.Contains(views[view], label) {
					t.Errorf("%s: the %s view lacks the %s kind's label", l, view, label)
				}
			}
			if words := report.EventWords(cfg.Topology, &events[i], "pay op-1", 0); strings.TrimSpace(words) == label {
				t.Errorf("%s: %s renders as the bare word %q", l, label, words)
			}
		}
	}
}

// rendered is events as the text timeline, the Mermaid diagram and the SVG
// (titled title), in the current language.
func rendered(t *testing.T, topo *sim.Topology, events []sim.Event, title string) (text, mermaid, diagram string) {
	t.Helper()
	var tb, mb, db bytes.Buffer
	if err := report.WriteTimeline(&tb, topo, events); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteMermaid(&mb, topo, events); err != nil {
		t.Fatal(err)
	}
	if err := svg.WriteTrace(&db, topo, events, title); err != nil {
		t.Fatal(err)
	}
	return tb.String(), mb.String(), db.String()
}
