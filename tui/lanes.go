package tui

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// legendID prefixes the message ids of the legend's items.
const legendID = "tui.legend."

// The lanes are a space-time diagram of the events around the cursor: one
// column per node, one row per event, time flowing down. Marks:
//
//	●───▷   send (the message leaves; it is in flight)
//	───▶◆   delivery (a handler runs)
//	●──✕    drop (lost on the way, or the receiver was down)
//	●═══▷   duplicate (the network made a second copy)
//	●┈┈┈▷   slow (the message will arrive after the timers waiting for it)
//	○ timer   ╳ crash   ↺ restart   ⏸ pause   ▶ resume   ★ effect   ✓ outcome   · store
//
// A lane is drawn ┊ while its node is down and ⋮ while it is paused.
// The second and later effects of an operation are drawn red.
var lanesLegend = []struct{ mark, id string }{
	{"●─▷", "send"}, {"─▶◆", "deliver"}, {"✕", "drop"}, {"═", "copy"}, {"┈", "slowed"}, {"○", "timer"},
	{"╳", "crashed"}, {"↺", "restart"}, {"┊", "down"}, {"⏸", "pausing"}, {"⋮", "paused"}, {"★", "effect"},
	{"★", "second_effect"}, {"✓", "result"}, {"·", "store"},
}

// legendLines lays the legend out in lines of at most width cells.
func legendLines(width int) []string {
	items := make([]string, len(lanesLegend))
	for i, l := range lanesLegend {
		items[i] = l.mark + " " + lang.T(legendID+l.id)
	}
	return fill(items, "   ", width)
}

// laneGeometry is where each node's column is. Only the nodes that take
// part in the run get a lane: a participant the semantics never uses
// would only take room from the others.
type laneGeometry struct {
	timeW  int   // width of the time column
	laneW  int   // width of one lane
	nodes  int   // lanes drawn
	slot   []int // each node's lane, -1 for a node without one
	labelW int
}

// labelMin is the room the lanes leave at least for the event's label.
const labelMin = 38

// lanesGeometry lays out the lanes of the nodes r's events touch.
func lanesGeometry(r *result, width int) laneGeometry {
	g := laneGeometry{timeW: 10, slot: make([]int, len(r.topo.Nodes))}
	used := make([]bool, len(r.topo.Nodes))
	for i := range r.events {
		e := &r.events[i]
		for _, n := range []sim.NodeID{e.Node, e.Peer} {
			if n != sim.NoNode && int(n) < len(used) {
				used[n] = true
			}
		}
	}
	for n := range g.slot {
		g.slot[n] = -1
		if used[n] {
			g.slot[n] = g.nodes
			g.nodes++
		}
	}
	g.nodes = max(g.nodes, 1)
	g.laneW = max(5, min(14, (width-g.timeW-labelMin)/g.nodes))
	g.labelW = max(0, width-g.timeW-g.laneW*g.nodes-1)
	return g
}

// col is the cell of node n's lane, -1 for a node without one.
func (g laneGeometry) col(n sim.NodeID) int {
	if int(n) >= len(g.slot) || g.slot[n] < 0 {
		return -1
	}
	return g.slot[n]*g.laneW + g.laneW/2
}

// has reports whether node n has a lane.
func (g laneGeometry) has(n sim.NodeID) bool { return g.col(n) >= 0 }

// Lane marks of a node that is not running.
const (
	laneUp     = '│'
	laneDown   = '┊'
	lanePaused = '⋮'
)

// downAt returns each node's lane mark just before event i happened, read
// from the trace's crash, restart, pause and resume events up to it.
func downAt(r *result, i int) []rune {
	down := make([]rune, len(r.topo.Nodes))
	for n := range down {
		down[n] = laneUp
	}
	for j := range min(i, len(r.events)) {
		advanceDown(r.topo, down, &r.events[j])
	}
	return down
}

// advanceDown moves down past event e.
func advanceDown(topo *sim.Topology, down []rune, e *sim.Event) {
	if int(e.Node) >= len(down) {
		return
	}
	switch report.EventClass(topo, e.Kind) {
	case sim.ClassStop:
		down[e.Node] = laneDown
		if e.Kind == sim.EvPause {
			down[e.Node] = lanePaused
		}
	case sim.ClassStart:
		down[e.Node] = laneUp
	}
}

// lanesView renders a header of node names and rows events centred on the
// cursor.
func lanesView(r *result, cursor, width, rows int) string {
	if r.topo == nil || len(r.events) == 0 || rows <= 0 {
		return ""
	}
	g := lanesGeometry(r, width)
	var b strings.Builder
	head := []rune(strings.Repeat(" ", g.laneW*g.nodes))
	for i := range r.topo.Nodes {
		if !g.has(sim.NodeID(i)) {
			continue
		}
		name := []rune(r.topo.NodeName(sim.NodeID(i)))
		if len(name) > g.laneW-1 {
			name = append(name[:g.laneW-2], '…')
		}
		start := max(0, g.col(sim.NodeID(i))-len(name)/2)
		for j, c := range name {
			if start+j < len(head) {
				head[start+j] = c
			}
		}
	}
	b.WriteString(styleTitle.Render(fit(strings.Repeat(" ", g.timeW)+string(head), width)))
	first := max(0, min(cursor-rows/2, len(r.events)-rows))
	down := downAt(r, first)
	for i := first; i < first+rows; i++ {
		b.WriteString("\n")
		if i >= len(r.events) {
			continue
		}
		b.WriteString(laneRow(r, g, i, i == cursor, down, width))
		advanceDown(r.topo, down, &r.events[i])
	}
	return b.String()
}

// laneRow draws one event.
func laneRow(r *result, g laneGeometry, i int, isCursor bool, down []rune, width int) string {
	e := &r.events[i]
	cells := make([]rune, g.laneW*g.nodes)
	for j := range cells {
		cells[j] = ' '
	}
	for n := range g.slot {
		if !g.has(sim.NodeID(n)) {
			continue
		}
		c := laneUp
		if n < len(down) {
			c = down[n]
		}
		cells[g.col(sim.NodeID(n))] = c
	}
	lo, hi := -1, -1 // the span the mark covers, styled by kind
	set := func(col int, c rune) {
		if col >= 0 && col < len(cells) {
			cells[col] = c
			if lo < 0 || col < lo {
				lo = col
			}
			hi = max(hi, col)
		}
	}
	arrow := func(from, to int, line, tail, head rune, stop int) {
		// from the sender's column towards to, ending stop cells short.
		dir := 1
		if to < from {
			dir = -1
		}
		set(from, tail)
		end := to - dir*stop
		for c := from + dir; c != end && c != to; c += dir {
			set(c, line)
		}
		if dir == 1 {
			set(end, head)
		} else {
			set(end, headLeft(head))
		}
	}
	node := g.col(e.Node)
	hasPeer := e.Peer != sim.NoNode && g.has(e.Peer) && g.has(e.Node)
	switch report.EventClass(r.topo, e.Kind) {
	case sim.ClassSend:
		if hasPeer {
			arrow(node, g.col(e.Peer), '─', '●', '▷', 1)
		}
	case sim.ClassInFlight:
		line := '┈'
		if e.Kind == sim.EvDuplicate {
			line = '═'
		}
		switch {
		case hasPeer && e.Peer != e.Node:
			arrow(node, g.col(e.Peer), line, '●', '▷', 1)
		case e.Peer == e.Node: // held back on its own node (a preemption)
			set(node, '●')
		}
	case sim.ClassDeliver:
		if hasPeer {
			// from the sender's lane (exclusive) to the receiver: ───▶◆
			peer := g.col(e.Peer)
			dir := 1
			if node < peer {
				dir = -1
			}
			for c := peer + dir; c != node; c += dir {
				set(c, '─')
			}
			if dir == 1 {
				set(node-1, '▶')
			} else {
				set(node+1, '◀')
			}
			set(node, '◆')
		}
	case sim.ClassDrop:
		if hasPeer {
			to := g.col(e.Peer)
			mid := (node + to) / 2
			if e.Reason == sim.DropDown {
				mid = to - sign(to-node)
			}
			set(node, '●')
			for c := node + sign(mid-node); c != mid; c += sign(mid - node) {
				set(c, '─')
			}
			set(mid, '✕')
		}
	case sim.ClassTimer:
		set(node, '○')
	case sim.ClassStop:
		if e.Kind == sim.EvPause {
			set(node, '⏸')
		} else {
			set(node, '╳')
		}
	case sim.ClassStart:
		if e.Kind == sim.EvResume {
			set(node, '▶')
		} else {
			set(node, '↺')
		}
	case sim.ClassEffect:
		set(node, '★')
	case sim.ClassOutcome:
		set(node, '✓')
	case sim.ClassStore:
		set(node, '·')
	}
	st := eventStyle(e.Kind)
	if r.nth[i] > 1 {
		st = styleBad // an operation's second effect: the harm
	}
	var lanes string
	if lo >= 0 {
		lanes = string(cells[:lo]) + st.Render(string(cells[lo:hi+1])) + string(cells[hi+1:])
	} else {
		lanes = string(cells)
	}
	t := fmt.Sprintf(" %8s ", report.TimeWords(e.At)) // the leading blank is the cursor's: a time 8 wide ("12,345 s") keeps every digit
	label := laneLabel(r.topo, e, r.nth[i])
	if isCursor {
		return fit(styleCursor.Render(pad("▸"+t[1:], g.timeW))+lanes+" "+styleCursor.Render(pad(label, g.labelW)), width)
	}
	return fit(styleDim.Render(t)+lanes+" "+st.Render(fit(label, g.labelW)), width)
}

func headLeft(h rune) rune {
	if h == '▷' {
		return '◁'
	}
	return h
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// laneLabel is a short description of an event for the lanes, in the
// current language (report.EventWords, the one source of the TUI's event
// words): the kind of event and the message or table it touched; an
// effect carries its value (the transaction id) and, when it is not its
// operation's first (nth > 1), says which effect it is.
func laneLabel(topo *sim.Topology, e *sim.Event, nth int) string {
	m := &e.Msg
	msg := topo.MessageName(m.Kind)
	if m.Op != 0 {
		msg += " " + m.Op.String()
	}
	if m.Attempt != 0 {
		msg += fmt.Sprintf(" #%d", m.Attempt)
	}
	return report.EventWords(topo, e, msg, nth)
}
