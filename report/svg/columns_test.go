package svg

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// TestColumnsShareOneTimeAxis: panels side by side put one event time at
// one height in every column, even when one panel has no event then, and
// the document is as wide as the columns together.
func TestColumnsShareOneTimeAxis(t *testing.T) {
	topo, events := canonicalDoubleBilling(t)
	// The second panel stops after the first delivery: fewer times.
	short := events[:4]
	var b bytes.Buffer
	if err := WriteColumns(&b, "heading\nsubtitle", []Panel{
		{Topology: topo, Events: events, Title: "long"},
		{Topology: topo, Events: short, Title: "short\nwith a second title line"},
	}); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.Bytes())
	doc := b.String()
	// Both columns label every time of the union, at the same heights.
	times := regexp.MustCompile(`<text x="68" y="([0-9.]+)"[^>]*>([0-9.]+m?s)</text>`).FindAllStringSubmatch(doc, -1)
	at := map[string][]string{}
	for _, m := range times {
		at[m[2]] = append(at[m[2]], m[1])
	}
	if len(at) < 5 {
		t.Fatalf("only %d time labels: %v", len(at), at)
	}
	for tm, ys := range at {
		if len(ys) != 2 || ys[0] != ys[1] {
			t.Errorf("time %s sits at %v: want one height in both columns", tm, ys)
		}
	}
	// Two nested panels, side by side.
	xs := regexp.MustCompile(`<svg x="([0-9.]+)" y="([0-9.]+)"`).FindAllStringSubmatch(doc, -1)
	if len(xs) != 2 || xs[0][2] != xs[1][2] {
		t.Fatalf("panels at %v: want two at one height", xs)
	}
	if x, _ := strconv.ParseFloat(xs[1][1], 64); x < 700 {
		t.Errorf("second column at x=%v: not beside the first", x)
	}
}

// TestHeadlineColumnsWiderThanTall: three semantics of a two-operation
// run side by side make a picture wider than tall — one slide.
func TestHeadlineColumnsWiderThanTall(t *testing.T) {
	topo, events := canonicalDoubleBilling(t)
	var b bytes.Buffer
	if err := WriteColumns(&b, "double-billing", []Panel{{Topology: topo, Events: events, Title: "amo"}, {Topology: topo, Events: events, Title: "alo"}, {Topology: topo, Events: events, Title: "idem"}}); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`width="([0-9.]+)" height="([0-9.]+)"`).FindStringSubmatch(b.String())
	w, _ := strconv.ParseFloat(m[1], 64)
	h, _ := strconv.ParseFloat(m[2], 64)
	if w <= h {
		t.Errorf("%v×%v: want wider than tall", w, h)
	}
}

// TestAnsweredTimersLeftOut: a retry timer that fires after its operation's
// outcome does nothing and is not drawn; one before the outcome is.
func TestAnsweredTimersLeftOut(t *testing.T) {
	topo := &sim.Topology{Nodes: []sim.NodeSpec{{Name: "client"}}, Timers: []string{"", "retry"}}
	events := []sim.Event{
		{At: 1, Kind: sim.EvTimerFire, Node: 0, Label: 1, Msg: sim.Message{Op: 1, Attempt: 1}},
		{At: 2, Kind: sim.EvOutcome, Node: 0, Msg: sim.Message{Op: 1, Status: 201}},
		{At: 9, Kind: sim.EvTimerFire, Node: 0, Label: 1, Msg: sim.Message{Op: 1, Attempt: 2}},
	}
	var b bytes.Buffer
	if err := WriteTrace(&b, topo, events, "t"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), ">retry op-1 #1<") || strings.Contains(b.String(), ">retry op-1 #2<") {
		t.Errorf("want the timer before the outcome drawn and the one after left out:\n%s", b.String())
	}
}
