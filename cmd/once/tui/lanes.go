package tui

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/sim"
)

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
var lanesLegend = []string{"●─▷ send", "─▶◆ deliver", "✕ drop", "═ duplicate", "┈ slow", "○ timer", "╳ crash",
	"↺ restart", "┊ down", "⏸ pause", "⋮ paused", "★ effect", "✓ result", "· store"}

// legendLines lays the legend out in lines of at most width cells.
func legendLines(width int) []string {
	var lines []string
	line := ""
	for _, item := range lanesLegend {
		switch {
		case line == "":
			line = item
		case len([]rune(line))+3+len([]rune(item)) <= width:
			line += "   " + item
		default:
			lines = append(lines, line)
			line = item
		}
	}
	return append(lines, line)
}

// laneGeometry is where each node's column is.
type laneGeometry struct {
	timeW  int // width of the time column
	laneW  int // width of one lane
	nodes  int
	labelW int
}

func lanesGeometry(nodes, width int) laneGeometry {
	g := laneGeometry{timeW: 9, nodes: max(nodes, 1)}
	g.laneW = max(5, min(14, (width-g.timeW-34)/g.nodes))
	g.labelW = max(0, width-g.timeW-g.laneW*g.nodes-1)
	return g
}

func (g laneGeometry) col(n sim.NodeID) int { return int(n)*g.laneW + g.laneW/2 }

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
		advanceDown(down, &r.events[j])
	}
	return down
}

// advanceDown moves down past event e.
func advanceDown(down []rune, e *sim.Event) {
	if int(e.Node) >= len(down) {
		return
	}
	switch e.Kind {
	case sim.EvCrash:
		down[e.Node] = laneDown
	case sim.EvPause:
		down[e.Node] = lanePaused
	case sim.EvRestart, sim.EvResume:
		down[e.Node] = laneUp
	}
}

// lanesView renders a header of node names and rows events centred on the
// cursor.
func lanesView(r *result, cursor, width, rows int) string {
	if r.topo == nil || len(r.events) == 0 || rows <= 0 {
		return ""
	}
	g := lanesGeometry(len(r.topo.Nodes), width)
	var b strings.Builder
	head := []rune(strings.Repeat(" ", g.laneW*g.nodes))
	for i := range r.topo.Nodes {
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
		advanceDown(down, &r.events[i])
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
	for n := range g.nodes {
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
	hasPeer := e.Peer != sim.NoNode && int(e.Peer) < g.nodes
	switch e.Kind {
	case sim.EvSend:
		if hasPeer {
			arrow(node, g.col(e.Peer), '─', '●', '▷', 1)
		}
	case sim.EvDuplicate:
		if hasPeer {
			arrow(node, g.col(e.Peer), '═', '●', '▷', 1)
		}
	case sim.EvSlow, sim.EvLate:
		if hasPeer {
			arrow(node, g.col(e.Peer), '┈', '●', '▷', 1)
		}
	case sim.EvDeliver:
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
	case sim.EvDrop:
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
	case sim.EvTimerFire:
		set(node, '○')
	case sim.EvCrash:
		set(node, '╳')
	case sim.EvRestart:
		set(node, '↺')
	case sim.EvPause:
		set(node, '⏸')
	case sim.EvResume:
		set(node, '▶')
	case sim.EvEffect:
		set(node, '★')
	case sim.EvOutcome:
		set(node, '✓')
	case sim.EvStoreGet, sim.EvStorePut, sim.EvStoreDelete:
		set(node, '·')
	}
	st := eventStyle(e.Kind)
	var lanes string
	if lo >= 0 {
		lanes = string(cells[:lo]) + st.Render(string(cells[lo:hi+1])) + string(cells[hi+1:])
	} else {
		lanes = string(cells)
	}
	t := fmt.Sprintf("%8s ", e.At)
	label := laneLabel(r.topo, e)
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

// laneLabel is a short description of an event for the lanes: the kind of
// event and the message or table it touched.
func laneLabel(topo *sim.Topology, e *sim.Event) string {
	m := &e.Msg
	msg := func() string {
		s := topo.MessageName(m.Kind)
		if m.Op != 0 {
			s += " " + m.Op.String()
		}
		if m.Attempt != 0 {
			s += fmt.Sprintf(" #%d", m.Attempt)
		}
		return s
	}
	switch e.Kind {
	case sim.EvSend:
		return "send " + msg()
	case sim.EvDeliver:
		return "deliver " + msg()
	case sim.EvDrop:
		return fmt.Sprintf("DROP (%s) %s", e.Reason, msg())
	case sim.EvDuplicate:
		return "DUPLICATE " + msg()
	case sim.EvSlow:
		return "SLOW " + msg()
	case sim.EvLate:
		return "LATE " + msg()
	case sim.EvTimerFire:
		return fmt.Sprintf("timer %s %s", topo.TimerName(sim.TimerKind(e.Label)), m.Op)
	case sim.EvCrash:
		return "CRASH at " + topo.PointName(sim.PointID(e.Label))
	case sim.EvRestart:
		return "RESTART (durable state kept)"
	case sim.EvPause:
		return fmt.Sprintf("PAUSE at %s for %s (state kept)", topo.PointName(sim.PointID(e.Label)), sim.Time(m.Value))
	case sim.EvResume:
		return "RESUME (queued work runs)"
	case sim.EvStoreGet:
		return fmt.Sprintf("get %s[%d]", topo.TableName(e.Node, sim.TableID(e.Label)), m.Key)
	case sim.EvStorePut:
		return fmt.Sprintf("put %s[%d]", topo.TableName(e.Node, sim.TableID(e.Label)), m.Key)
	case sim.EvStoreDelete:
		return fmt.Sprintf("delete %s[%d]", topo.TableName(e.Node, sim.TableID(e.Label)), m.Key)
	case sim.EvEffect:
		return fmt.Sprintf("EFFECT %s %s", topo.SinkName(sim.SinkID(e.Label)), m.Op)
	case sim.EvOutcome:
		return fmt.Sprintf("result %s status=%d", m.Op, m.Status)
	}
	return e.Kind.String()
}
