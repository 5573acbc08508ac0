package svg

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/internal/golden"
	"github.com/oncesim/once/internal/svgtext"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden SVG diagrams under testdata/svg (make update ONLY=svg)")

// canonicalDoubleBilling is the trace of the lesson: one payment under
// at-least-once, its pay-response lost on the way back, the client
// retries, the gateway charges twice.
func canonicalDoubleBilling(t *testing.T) (*sim.Topology, []sim.Event) {
	t.Helper()
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 1, Faults: scenarios.Faults{Probability: [sim.MaxFaultKinds]float64{sim.FaultAckLoss: 0.5}}})
	if err != nil {
		t.Fatal(err)
	}
	service, ok1 := cfg.Topology.NodeByName("service")
	client, ok2 := cfg.Topology.NodeByName("client")
	if !ok1 || !ok2 {
		t.Fatal("double-billing has no service or no client")
	}
	plan := []sim.Fault{{Kind: sim.ChoiceLoss, Node: service, Peer: client, Msg: payments.MsgPayResponse, Op: 1, Attempt: 1, Occurrence: 1, Value: 1}}
	trace := &sim.Trace{}
	w, err := sim.NewWorld(cfg, sim.NewScripted(plan, nil), trace)
	if err != nil {
		t.Fatal(err)
	}
	if out := w.Run(); out.Ops[0].Verdict != sim.Duplicated {
		t.Fatalf("the canonical plan gives op-1 %s, want duplicated", out.Ops[0].Verdict)
	}
	return cfg.Topology, trace.Events
}

// TestSVGGolden pins the diagram of the canonical double-billing schedule
// in testdata/svg/double-billing-alo.svg. Refresh it with
//
//	make update ONLY=svg
//
// and look at it (rsvg-convert renders it to PNG) before committing.
func TestSVGGolden(t *testing.T) {
	topo, events := canonicalDoubleBilling(t)
	var b bytes.Buffer
	if err := WriteTrace(&b, topo, events, "double-billing · at-least-once · pay-response op-1 #1 lost\nthe client retries and the gateway charges twice"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join("..", "..", "testdata", "svg", "double-billing-alo.svg")
	if golden.Rewrite(*rewrite, "svg", "double-billing") {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (create it with make update ONLY=svg)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		got, wantLines := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(got) && i < len(wantLines); i++ {
			if got[i] != wantLines[i] {
				t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(refresh with make update ONLY=svg and look at the picture)%s", file, i+1, got[i], wantLines[i], golden.Left(*rewrite, "svg", "double-billing"))
			}
		}
		t.Fatalf("%s differs in length: got %d lines, want %d (refresh with make update ONLY=svg)%s", file, len(got), len(wantLines), golden.Left(*rewrite, "svg", "double-billing"))
	}
	// What the lesson needs to see is there.
	for _, s := range []string{
		">client</text>", ">service</text>", ">gateway</text>",
		">pay op-1 #1</text>", ">pay op-1 #2</text>",
		">pay-response op-1 #1</text>", ">lost</text>",
		">card-charges op-1 · 8821</text>", ">card-charges op-1 · 8822 — 2nd effect!</text>", // two charges, two transaction ids
		">op-1 done: 201 value 8822</text>",
		">legend</text>",
	} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("the diagram lacks %q", s)
		}
	}
}

// wellFormed decodes the whole document and returns its root element's
// name and how many elements it holds.
func wellFormed(t *testing.T, doc []byte) (string, int) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	root, elements, depth := "", 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if root != "" {
					t.Fatalf("a second root element <%s>", tok.Name.Local)
				}
				root = tok.Name.Local
			}
			elements++
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if depth != 0 {
		t.Fatalf("unbalanced document: depth %d at the end", depth)
	}
	for _, bad := range []string{"NaN", "Inf"} {
		if bytes.Contains(doc, []byte("\""+bad)) || bytes.Contains(doc, []byte(" "+bad)) {
			t.Errorf("the document holds a %s coordinate", bad)
		}
	}
	return root, elements
}

// seedOne runs a catalog scenario under sem with its own defaults on
// seed 1 and returns its topology and trace.
func seedOne(t *testing.T, sc *scenarios.Scenario, sem sim.Semantics) (*sim.Topology, []sim.Event) {
	t.Helper()
	cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	trace := &sim.Trace{}
	w, err := sim.NewWorld(cfg, sim.NewRandom(1), trace)
	if err != nil {
		t.Fatal(err)
	}
	w.Run()
	return cfg.Topology, trace.Events
}

// TestSVGWellFormed renders every catalog scenario's seed-1 run under
// every semantics it supports, decodes the result as XML and measures its
// labels: none overlaps another, none is clipped (checkLabels).
func TestSVGWellFormed(t *testing.T) {
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			t.Run(sc.Name+"/"+sem.Alias(), func(t *testing.T) {
				topo, events := seedOne(t, sc, sem)
				var b bytes.Buffer
				if err := WriteTrace(&b, topo, events, sc.Name+" · "+sem.String()); err != nil {
					t.Fatal(err)
				}
				root, n := wellFormed(t, b.Bytes())
				if root != "svg" {
					t.Fatalf("root element <%s>, want <svg>", root)
				}
				if n < len(topo.Nodes) {
					t.Fatalf("only %d elements for %d nodes", n, len(topo.Nodes))
				}
				checkLabels(t, b.Bytes())
			})
		}
	}
}

// TestSVGPanels stacks one diagram per semantics in one document: one
// root, one nested <svg> per panel, every title.
func TestSVGPanels(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	var panels []Panel
	for _, sem := range sc.Semantics {
		topo, events := seedOne(t, sc, sem)
		panels = append(panels, Panel{Topology: topo, Events: events, Title: "double-billing · " + sem.String()})
	}
	var b bytes.Buffer
	if err := WritePanels(&b, panels); err != nil {
		t.Fatal(err)
	}
	if root, _ := wellFormed(t, b.Bytes()); root != "svg" {
		t.Fatalf("root element <%s>, want <svg>", root)
	}
	if got := strings.Count(b.String(), "<svg "); got != len(panels)+1 {
		t.Errorf("%d <svg> elements, want a root and %d panels", got, len(panels))
	}
	for _, p := range panels {
		if !strings.Contains(b.String(), ">"+svgEscape(p.Title)+"</text>") {
			t.Errorf("no title %q", p.Title)
		}
	}
}

// TestSVGDeterministic renders the same run twice, from two separate
// simulations, and wants the same bytes.
func TestSVGDeterministic(t *testing.T) {
	for _, name := range []string{"double-billing", "in-memory-dedup-restart", "kafka-eos-happy-path", "two-generals"} {
		sc, err := scenarios.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		var out [2][]byte
		for i := range out {
			topo, events := seedOne(t, sc, sc.Semantics[len(sc.Semantics)-1])
			var b bytes.Buffer
			if err := WriteTrace(&b, topo, events, name); err != nil {
				t.Fatal(err)
			}
			out[i] = b.Bytes()
		}
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("%s: two renderings of the same run differ", name)
		}
	}
	topo, events := canonicalDoubleBilling(t)
	var a, b bytes.Buffer
	if err := WriteTrace(&a, topo, events, "x"); err != nil {
		t.Fatal(err)
	}
	if err := WritePanels(&b, []Panel{{Topology: topo, Events: events, Title: "x"}}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("WriteTrace and a one-panel WritePanels differ")
	}
}

// TestSVGEscapes checks that names and titles with XML's special
// characters, and control characters, still give a well-formed document.
func TestSVGEscapes(t *testing.T) {
	topo := &sim.Topology{
		Nodes:    []sim.NodeSpec{{Name: "a<b>"}, {Name: "c&d", Tables: []sim.TableSpec{{Name: "k\"'", Traced: true, States: []string{"", "<DONE>"}}}}},
		Messages: []string{"", "m&m"},
		Sinks:    []string{"s<1>"},
	}
	events := []sim.Event{
		{At: 0, Kind: sim.EvSend, Node: 0, Peer: 1, Msg: sim.Message{ID: 1, From: 0, To: 1, Kind: 1, Op: 1, Attempt: 1}},
		{At: 5, Kind: sim.EvDeliver, Node: 1, Peer: 0, Msg: sim.Message{ID: 1, From: 0, To: 1, Kind: 1, Op: 1, Attempt: 1}},
		{At: 5, Kind: sim.EvStorePut, Node: 1, Msg: sim.Message{Op: 1, Key: 7}, Rec: sim.Record{State: 1}},
		{At: 5, Kind: sim.EvEffect, Node: 1, Msg: sim.Message{Op: 1}},
	}
	var b bytes.Buffer
	if err := WriteTrace(&b, topo, events, "title <with> & \"quotes\" and a \x01 control"); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.Bytes())
	checkLabels(t, b.Bytes())
	for _, s := range []string{"a&lt;b&gt;", "c&amp;d", "m&amp;m op-1 #1", "put k&quot;&apos;[7] = &lt;DONE&gt;", "s&lt;1&gt; op-1", "title &lt;with&gt; &amp; &quot;quotes&quot; and a  control"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("no %q in the document", s)
		}
	}
}

// TestSVGEdgeCases: an empty trace, an empty topology, a message still in
// flight, a self-send and a crash without a restart all render.
func TestSVGEdgeCases(t *testing.T) {
	topo := &sim.Topology{Nodes: []sim.NodeSpec{{Name: "a"}, {Name: "b"}}, Messages: []string{"", "ping"}}
	for name, events := range map[string][]sim.Event{
		"empty": nil,
		"in-flight, self-send, crash": {
			{At: 0, Kind: sim.EvSend, Node: 0, Peer: 1, Msg: sim.Message{ID: 1, Kind: 1, Op: 1, Attempt: 1}},
			{At: 0, Kind: sim.EvSend, Node: 1, Peer: 1, Msg: sim.Message{ID: 2, Kind: 1, Op: 2, Attempt: 1}},
			{At: 3, Kind: sim.EvDeliver, Node: 1, Peer: 1, Msg: sim.Message{ID: 2, Kind: 1, Op: 2, Attempt: 1}},
			{At: 4, Kind: sim.EvCrash, Node: 1},
			{At: 9, Kind: sim.EvDeliver, Node: 1, Peer: 0, Msg: sim.Message{ID: 99, Kind: 1}}, // no send
		},
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteTrace(&b, topo, events, name); err != nil {
				t.Fatal(err)
			}
			wellFormed(t, b.Bytes())
		})
	}
	var b bytes.Buffer
	if err := WriteTrace(&b, &sim.Topology{}, nil, "nothing"); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.Bytes())
}

func TestSVGNum(t *testing.T) {
	for v, want := range map[float64]string{0: "0", -0.01: "0", 1.25: "1.2", 1.35: "1.4", 12: "12", -3.5: "-3.5", 100.04: "100"} {
		if got := svgNum(v); got != want {
			t.Errorf("svgNum(%v) = %q, want %q", v, got, want)
		}
	}
}

// checkLabels fails on every label of doc that overlaps another or runs
// out of its viewBox, measured as svgtext.Check measures them.
func checkLabels(t *testing.T, doc []byte) {
	t.Helper()
	problems, err := svgtext.Check(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
