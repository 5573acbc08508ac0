package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// stepsLeftOut says, in a long diagram, how many steps of which operations
// it does not draw.
func stepsLeftOut(n int, what string) string {
	return lang.Nf("mermaid.steps_left_out", n, map[string]any{"What": what})
}

// MermaidMaxLines is how long a sequence diagram may grow before the
// operations that went as they should are summarised in one note each
// run: past it, a diagram is no longer read on a slide or a page.
const MermaidMaxLines = 160

// WriteMermaid renders the trace as a Mermaid sequence diagram, the form
// the lesson draws by hand: one participant per node plus one per traced
// store — only those the trace uses —, arrows for delivered messages,
// crosses for lost ones, notes for effects (a second effect of one
// operation in a red box), crashes and restarts.
func WriteMermaid(w io.Writer, topo *sim.Topology, events []sim.Event) error {
	return WriteMermaidFocus(w, topo, events, nil)
}

// WriteMermaidFocus is WriteMermaid for a long trace: when the diagram
// would pass MermaidMaxLines, only the events of the focus operations
// (those the lesson is about: lost or duplicated — as many of the first
// of them as fit), of the first operation (to show the normal path once)
// and of no operation at all (crashes, restarts) are drawn; every stretch
// left out is one note that names the operations it covered and points to
// --format trace.
func WriteMermaidFocus(w io.Writer, topo *sim.Topology, events []sim.Event, focus []sim.OpID) error {
	return WriteMermaidOutcome(w, topo, events, focus, "")
}

// WriteMermaidOutcome is WriteMermaidFocus ending with a note that says
// what the run came to (a FramingLine: the guarantee apart from what the
// customer got); an empty line adds no note.
func WriteMermaidOutcome(w io.Writer, topo *sim.Topology, events []sim.Event, focus []sim.OpID, line string) error {
	lines := mermaidLines(topo, events, nil)
	for _, keep := range focusTiers(topo, focus) {
		if len(lines) <= MermaidMaxLines {
			break
		}
		lines = mermaidLines(topo, events, keep)
	}
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for _, l := range lines {
		b.WriteString("    " + l + "\n")
	}
	if line != "" && len(events) > 0 {
		// a semicolon ends a Mermaid statement: write it as an entity
		id := strings.ReplaceAll(topo.NodeName(firstNode(events)), "-", "_")
		fmt.Fprintf(&b, "    Note over %s: %s\n", id, strings.ReplaceAll(line, ";", "#59;"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mermaidLines draws the events keep accepts (all when keep is nil),
// after the participants they use.
func mermaidLines(topo *sim.Topology, events []sim.Event, keep func(*sim.Event) bool) []string {
	id := func(n sim.NodeID) string { return strings.ReplaceAll(topo.NodeName(n), "-", "_") }
	store := func(n sim.NodeID, t sim.TableID) string {
		return id(n) + "_" + strings.ReplaceAll(topo.TableName(n, sim.TableID(t)), "-", "_")
	}
	usedNode := map[sim.NodeID]bool{}
	usedStore := map[[2]int]bool{}
	effects := map[[2]int64]int{} // (sink, op) → effects so far
	var body []string
	var skipped []sim.OpID
	skippedEvents, background := 0, 0
	flush := func() {
		if len(skipped) == 1 && skipped[0] <= 0 {
			// Steps of no operation alone: counted, told once at the end.
			background += skippedEvents
			skipped, skippedEvents = nil, 0
		}
		if skippedEvents == 0 {
			return
		}
		slices.Sort(skipped)
		names := make([]string, len(skipped))
		for i, op := range skipped {
			names[i] = op.String()
			if op <= 0 {
				names[i] = lang.T("mermaid.background")
			}
		}
		usedNode[firstNode(events)] = true
		body = append(body, fmt.Sprintf("Note over %s: %s",
			id(firstNode(events)), stepsLeftOut(skippedEvents, strings.Join(names, ", "))))
		skipped, skippedEvents = nil, 0
	}
	for i := range events {
		e := &events[i]
		m := &e.Msg
		if !mermaidDrawn(topo, e.Kind) {
			continue
		}
		if keep != nil && !keep(e) {
			if e.Kind == sim.EvEffect { // counted all the same: a later 2nd effect stays red
				effects[[2]int64{int64(e.Label), int64(m.Op)}]++
			}
			skippedEvents++
			if !slices.Contains(skipped, m.Op) {
				skipped = append(skipped, m.Op)
			}
			continue
		}
		flush()
		usedNode[e.Node] = true
		if e.Peer != sim.NoNode && mermaidBetween(EventClass(topo, e.Kind)) {
			usedNode[e.Peer] = true
		}
		switch EventClass(topo, e.Kind) {
		case sim.ClassDeliver:
			body = append(body, fmt.Sprintf("%s->>%s: %s", id(e.Peer), id(e.Node), msgLabel(topo, m)))
		case sim.ClassDrop:
			why := lang.Word("svg", e.Reason.String())
			if e.Kind != sim.EvDrop {
				why = EventLabel(topo, e.Kind) + ": " + why
			}
			body = append(body, fmt.Sprintf("%s-x%s: %s (%s)", id(e.Node), id(e.Peer), msgLabel(topo, m), why))
		case sim.ClassInFlight:
			body = append(body, fmt.Sprintf("Note over %s,%s: %s", id(e.Node), id(e.Peer), mermaidInFlight(topo, e.Kind, msgLabel(topo, m))))
		case sim.ClassStore:
			usedStore[[2]int{int(e.Node), int(e.Label)}] = true
			switch {
			case e.Kind == sim.EvStoreGet:
				res := lang.T("mermaid.not_found")
				if e.Found {
					res = recordLabel(topo, e)
				}
				body = append(body, fmt.Sprintf("%s->>%s: %s", id(e.Node), store(e.Node, e.Table()), lang.Tf("mermaid.get", map[string]any{"Key": m.Key})),
					fmt.Sprintf("%s-->>%s: %d: %s", store(e.Node, e.Table()), id(e.Node), m.Key, res))
			case e.Kind == sim.EvStorePut:
				body = append(body, fmt.Sprintf("%s->>%s: %s", id(e.Node), store(e.Node, e.Table()), lang.Tf("mermaid.put", map[string]any{"Key": m.Key, "Record": recordLabel(topo, e)})))
			case e.Kind == sim.EvStoreDelete:
				what := "mermaid.delete"
				if e.Found {
					what = "mermaid.expire"
				}
				body = append(body, fmt.Sprintf("%s->>%s: %s", id(e.Node), store(e.Node, e.Table()), lang.Tf(what, map[string]any{"Key": m.Key})))
			default:
				body = append(body, fmt.Sprintf("%s->>%s: %s %d", id(e.Node), store(e.Node, e.Table()), EventLabel(topo, e.Kind), m.Key))
			}
		case sim.ClassEffect:
			k := [2]int64{int64(e.Label), int64(m.Op)}
			effects[k]++
			note := fmt.Sprintf("Note right of %s: %s", id(e.Node), lang.Tf("mermaid.effect", map[string]any{"Sink": topo.SinkName(sim.SinkID(e.Label)), "Op": m.Op.String(), "Value": m.Value}))
			if effects[k] > 1 {
				// A second effect of one operation: the lesson's red star.
				body = append(body, mermaidRed, note+" "+lang.Tf("mermaid.nth_effect", map[string]any{"Nth": Ordinal(effects[k]), "N": effects[k]}), "end")
				continue
			}
			body = append(body, note)
		case sim.ClassStop:
			var note string
			switch e.Kind {
			case sim.EvCrash:
				note = lang.Tf("mermaid.crash", map[string]any{"Point": topo.PointName(sim.PointID(e.Label))})
			case sim.EvPause:
				note = lang.Tf("mermaid.pause", map[string]any{"Point": topo.PointName(sim.PointID(e.Label)), "For": TimeWords(sim.Time(m.Value))})
			default:
				note = EventLabel(topo, e.Kind) + " " + topo.PointName(sim.PointID(e.Label))
			}
			body = append(body, fmt.Sprintf("Note over %s: %s", id(e.Node), note))
		case sim.ClassStart:
			note := EventLabel(topo, e.Kind)
			switch e.Kind {
			case sim.EvRestart:
				note = lang.T("mermaid.restart")
			case sim.EvResume:
				note = lang.T("mermaid.resume")
			}
			body = append(body, fmt.Sprintf("Note over %s: %s", id(e.Node), note))
		case sim.ClassOutcome:
			body = append(body, fmt.Sprintf("Note over %s: %s", id(e.Node), lang.Tf("mermaid.outcome", map[string]any{"Op": m.Op.String(), "Status": m.Status, "Value": m.Value})))
		}
	}
	flush()
	if background > 0 {
		usedNode[firstNode(events)] = true
		body = append(body, fmt.Sprintf("Note over %s: %s", id(firstNode(events)), stepsLeftOut(background, lang.T("mermaid.background"))))
	}
	var out []string
	for i := range topo.Nodes {
		n := sim.NodeID(i)
		if usedNode[n] {
			out = append(out, "participant "+id(n))
		}
		for t, spec := range topo.Nodes[i].Tables {
			if spec.Traced && usedStore[[2]int{i, t}] {
				kind := lang.T("svg.durable")
				if !spec.Durable {
					kind = lang.T("svg.memory")
				}
				out = append(out, fmt.Sprintf("participant %s as %s %s (%s)", store(n, sim.TableID(t)), topo.NodeName(n), spec.Name, kind))
			}
		}
	}
	return append(out, body...)
}

// mermaidRed opens the box a second effect is drawn in.
const mermaidRed = "rect rgb(254, 226, 226)"

// mermaidDrawn reports whether WriteMermaid draws events of kind k (sends
// show as their delivery or drop; timers are left out).
func mermaidDrawn(topo *sim.Topology, k sim.EventKind) bool {
	switch EventClass(topo, k) {
	case sim.ClassSend, sim.ClassTimer:
		return false
	}
	return true
}

// mermaidBetween reports whether events of class c are drawn between
// their node and its peer.
func mermaidBetween(c sim.RenderClass) bool {
	return c == sim.ClassDeliver || c == sim.ClassDrop || c == sim.ClassInFlight
}

// mermaidInFlight is the note over a message the network does something
// to on its way: the kind's own sentence, or its label and the message.
func mermaidInFlight(topo *sim.Topology, k sim.EventKind, msg string) string {
	id := map[sim.EventKind]string{sim.EvDuplicate: "mermaid.duplicates", sim.EvSlow: "mermaid.slow", sim.EvLate: "mermaid.late", sim.EvPreempt: "mermaid.preempt"}[k]
	if id == "" {
		return EventLabel(topo, k) + " " + msg
	}
	return lang.Tf(id, map[string]any{"Msg": msg})
}

// firstNode is the node of the first event, where summary notes go.
func firstNode(events []sim.Event) sim.NodeID {
	for i := range events {
		if events[i].Node != sim.NoNode {
			return events[i].Node
		}
	}
	return 0
}

// Ordinal spells n as "2nd", "3rd", "11th"… — the one spelling of an
// effect's rank that the Mermaid and SVG diagrams share.
func Ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}
