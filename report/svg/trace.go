package svg

import (
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/oncesim/once/internal/svgtext"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// Panel is one space-time diagram of an SVG document: a trace, the
// topology that names it, and a title.
type Panel struct {
	Topology *sim.Topology
	Events   []sim.Event
	Title    string
	// Unmarked draws every effect alike — no red star, no "2nd effect"
	// label, no such legend entry —, for a student's edition that must
	// not answer its questions before the reveal (the effects are still
	// there to be counted by one who reads the run).
	Unmarked bool
	// MinFont, when set, is the smallest font size the diagram draws
	// (pixels of its own): every smaller text is drawn at it, measured at
	// it and laid out around it — a slide scales the diagram down to its
	// page and still wants its text readable.
	MinFont float64
}

// WriteTrace renders the trace as an SVG space-time diagram: one vertical
// lane per node, time flowing downward on a compressed scale (one row per
// distinct event time, its time at the left), an arrow per delivered
// message from the send to the delivery, lost messages stopping midway at
// a red cross, messages to a crashed node stopping at a grey one, crashes
// as a red zigzag on the lane until the restart, effects as stars (red when
// the operation already had one on that sink), store reads and writes as
// squares beside the lane with the key's state, client outcomes as check
// marks, and a legend at the bottom. The title's first line is the
// heading; any further lines ("\n") go under it in smaller type. The
// output is a pure function of its inputs, byte for byte.
func WriteTrace(w io.Writer, topo *sim.Topology, events []sim.Event, title string) error {
	return WritePanels(w, []Panel{{Topology: topo, Events: events, Title: title}})
}

// WritePanels writes one SVG document holding every panel's diagram,
// stacked vertically in order, each with its title and legend.
func WritePanels(w io.Writer, panels []Panel) error {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	if len(panels) == 1 {
		d := newSVGDiagram(&panels[0])
		svgRoot(&b, d.width, d.height)
		d.draw(&b)
		b.WriteString("</svg>\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	ds := make([]*svgDiagram, len(panels))
	width, height := 0.0, 0.0
	for i := range panels {
		ds[i] = newSVGDiagram(&panels[i])
		width = math.Max(width, ds[i].width)
		if i > 0 {
			height += svgPanelGap
		}
		height += ds[i].height
	}
	svgRoot(&b, width, height)
	y := 0.0
	for i, d := range ds {
		if i > 0 {
			element(&b, "line", "x1", "0", "y1", svgNum(y+svgPanelGap/2), "x2", svgNum(width), "y2", svgNum(y+svgPanelGap/2), "stroke", svgLaneColor, "stroke-width", "2")
			y += svgPanelGap
		}
		d.drawAt(&b, 0, y)
		y += d.height
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func svgRoot(b *strings.Builder, width, height float64) {
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" font-family=\"%s\">\n",
		svgNum(width), svgNum(height), svgNum(width), svgNum(height), svgFont)
	element(b, "rect", "width", "100%", "height", "100%", "fill", "#ffffff")
}

// Geometry (pixels) and colours of the diagram.
const (
	svgFont       = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
	svgGutter     = 76.0  // the time column at the left
	svgFirstLane  = 56.0  // from the gutter to the first lane
	svgLaneGap    = 260.0 // between two lanes
	svgRightPad   = 130.0 // after the last lane, at least
	svgMinWidth   = 760.0
	svgTitleY     = 28.0
	svgSubtitleH  = 17.0 // each line of the title after the first
	svgHeadTop    = 44.0 // node name boxes, below a one-line title
	svgHeadH      = 26.0
	svgTableH     = 12.0 // each traced table under a node's name
	svgSlotH      = 20.0 // one event of one node
	svgRowPad     = 8.0  // between two rows
	svgLostDY     = 18.0 // how far down a lost message travels
	svgBottomPad  = 40.0
	svgLegendRowH = 24.0
	svgPanelGap   = 24.0

	svgInk        = "#1f2937"
	svgMuted      = "#6b7280"
	svgLaneColor  = "#cbd5e1"
	svgStripe     = "#f5f7fa"
	svgRed        = "#dc2626"
	svgDarkRed    = "#b91c1c"
	svgDownGrey   = "#9ca3af"
	svgCrashFill  = "#fdecec"
	svgPauseFill  = "#e8eefc"
	svgPauseInk   = "#3b5bdb"
	svgGreen      = "#15803d"
	svgStarFill   = "#f59e0b"
	svgStarStroke = "#92400e"
	svgStarBg     = "#fef3c7"
	svgDupBg      = "#fee2e2"
	svgStore      = "#475569"
	svgNoOp       = "#475569"
)

// svgOpColors tells operations apart: readable on white, none of them red
// (loss, crashes) or light grey (messages to a crashed node).
var svgOpColors = [...]string{"#1d4ed8", "#0f766e", "#7e22ce", "#b45309", "#be185d", "#4d7c0f", "#0369a1", "#6d28d9"}

func svgOpColor(op sim.OpID) string {
	if op <= 0 {
		return svgNoOp
	}
	return svgOpColors[int(op-1)%len(svgOpColors)]
}

// svgNum formats a coordinate with one fixed decimal, dropping ".0".
func svgNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if s == "-0.0" {
		s = "0.0"
	}
	return strings.TrimSuffix(s, ".0")
}

var svgEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&quot;", "'", "&apos;")

// svgEscape makes s safe as XML text or attribute value, dropping the
// control characters XML 1.0 does not allow.
func svgEscape(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, s)
	return svgEscaper.Replace(s)
}

// svgTextWidth estimates the width of s at font size size (svgtext.Width:
// the one measure of the diagrams' labels, their layout's and their
// test's).
func svgTextWidth(s string, size float64) float64 { return svgtext.Width(s, size, false) }

// svgBoldWidth is svgTextWidth in bold.
func svgBoldWidth(s string, size float64) float64 { return svgtext.Width(s, size, true) }

// svgMsg gathers what happened to one sent message, by trace index.
type svgMsg struct {
	send       int
	deliveries []int
	drops      []int
	slow       bool
}

type svgRow struct {
	top, height float64
	at          sim.Time
	idle        sim.Time // a long idle gap before the row, drawn as a break
}

type svgBox struct{ x0, y0, x1, y1 float64 }

func (a svgBox) overlap(b svgBox) float64 {
	w := math.Min(a.x1, b.x1) - math.Max(a.x0, b.x0)
	h := math.Min(a.y1, b.y1) - math.Max(a.y0, b.y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// svgPlaced holds the label boxes drawn so far, indexed by horizontal
// bands so that a long trace does not compare every label with every
// other. A box is kept as its bounds and its corners: an arrow's label
// is rotated with its arrow, and its bounds alone would claim the space
// around it.
type svgPlaced struct {
	boxes   []svgBox
	corners [][4][2]float64
	bands   [][]int32 // band → indexes of the boxes that reach into it
}

const svgBandH = 64.0 // band height

func svgBandOf(y float64) int { return max(0, int(y/svgBandH)) }

// svgCorners are the corners of an axis-aligned box.
func svgCorners(b svgBox) [4][2]float64 {
	return [4][2]float64{{b.x0, b.y0}, {b.x1, b.y0}, {b.x1, b.y1}, {b.x0, b.y1}}
}

// svgBounds is the axis-aligned box around corners.
func svgBounds(c [4][2]float64) svgBox {
	b := svgBox{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range c {
		b.x0, b.x1 = math.Min(b.x0, p[0]), math.Max(b.x1, p[0])
		b.y0, b.y1 = math.Min(b.y0, p[1]), math.Max(b.y1, p[1])
	}
	return b
}

func (p *svgPlaced) add(b svgBox) { p.addCorners(svgCorners(b)) }

func (p *svgPlaced) addCorners(c [4][2]float64) {
	b := svgBounds(c)
	i := int32(len(p.boxes))
	p.boxes = append(p.boxes, b)
	p.corners = append(p.corners, c)
	for k := svgBandOf(b.y0); k <= svgBandOf(b.y1); k++ {
		for len(p.bands) <= k {
			p.bands = append(p.bands, nil)
		}
		p.bands[k] = append(p.bands[k], i)
	}
}

// overlap is the total area b shares with the boxes placed, each counted
// once (in the first band both reach).
func (p *svgPlaced) overlap(b svgBox) float64 { return p.overlapCorners(svgCorners(b)) }

// overlapCorners is overlap for a box given by its corners (rotated or
// not): the bounds' shared area of every placed box it reaches into.
func (p *svgPlaced) overlapCorners(c [4][2]float64) float64 {
	b := svgBounds(c)
	o := 0.0
	lo := svgBandOf(b.y0)
	for k := lo; k <= svgBandOf(b.y1) && k < len(p.bands); k++ {
		for _, i := range p.bands[k] {
			q := p.boxes[i]
			if max(lo, svgBandOf(q.y0)) != k {
				continue
			}
			if a := b.overlap(q); a > 0 && svgtext.Overlap(c, p.corners[i]) {
				o += math.Max(a, 1)
			}
		}
	}
	return o
}

type svgDiagram struct {
	topo   *sim.Topology
	events []sim.Event
	title  []string // the title, line by line
	lanes  int
	head   float64            // top of the node name boxes
	top    float64            // top of the first row
	msgs   map[uint32]*svgMsg // by Msg.ID, looked up only: never iterated
	y      []float64          // per event: where it sits
	rows   []svgRow
	bottom float64 // end of the body (the lanes)
	legend []svgLegendItem
	legY   float64
	width  float64
	height float64
	placed svgPlaced // labels drawn so far, to keep arrow labels apart
	// extra is the room added under a row (by its time) whose labels
	// found no clear place (see stretch); looked up only.
	extra map[sim.Time]float64
	// conflicts are the rows (by time) where a label of the last drawing
	// overlapped another, in drawing order.
	conflicts []sim.Time
	// unmarked: see Panel.Unmarked.
	unmarked bool
	minFont  float64 // see Panel.MinFont
	gutter   float64 // the time column's width
}

// laneGap is the distance between two lanes.
func (d *svgDiagram) laneGap() float64 { return svgLaneGap }

// fs is the font size the diagram draws text of size size at.
func (d *svgDiagram) fs(size float64) float64 { return math.Max(size, d.minFont) }

// fsAttr is fs as an attribute value.
func (d *svgDiagram) fsAttr(size float64) string { return svgNum(d.fs(size)) }

// subtitleH is the height of each line of the title after the first.
func (d *svgDiagram) subtitleH() float64 { return math.Max(svgSubtitleH, d.fs(12)+5) }

// tableH is the height of each traced table's line under a node's name.
func (d *svgDiagram) tableH() float64 {
	return math.Max(svgTableH, d.fs(9.5)+2.5)
}

func newSVGDiagram(p *Panel) *svgDiagram {
	d := prepareDiagram(p)
	// Stretched where labels collide, until none do; the layout with the
	// fewest collisions is kept.
	fewest, best := -1, map[sim.Time]float64(nil)
	for range svgMaxStretch {
		d.layoutRows(nil)
		c := d.conflictRows()
		if fewest < 0 || len(c) < fewest {
			fewest, best = len(c), maps.Clone(d.extra)
		}
		if !d.stretch(c) {
			break
		}
	}
	d.extra = best
	d.layoutRows(nil)
	d.finish()
	return d
}

// svgMaxStretch bounds how many times a layout is stretched where its
// labels collide before it is drawn as it stands.
const svgMaxStretch = 16

// conflictRows draws the marks and the arrows into nothing and returns the
// rows (by time) where a label found no place clear of the others.
func (d *svgDiagram) conflictRows() []sim.Time {
	d.placed, d.conflicts = svgPlaced{}, nil
	var dry strings.Builder
	d.drawMarks(&dry)
	d.drawArrows(&dry)
	d.placed = svgPlaced{}
	return d.conflicts
}

// stretch adds a slot of room under each of the rows at times and
// reports whether there were any: the arrows that cross those rows grow
// longer there, and their labels find room along them.
func (d *svgDiagram) stretch(times []sim.Time) bool {
	if len(times) == 0 {
		return false
	}
	if d.extra == nil {
		d.extra = map[sim.Time]float64{}
	}
	for _, t := range times {
		d.extra[t] += svgSlotH
	}
	return true
}

// conflict notes that a label at height y overlaps another: its row needs
// room.
func (d *svgDiagram) conflict(y float64) {
	if len(d.rows) == 0 {
		return
	}
	i := max(0, sort.Search(len(d.rows), func(i int) bool { return d.rows[i].top > y })-1)
	if t := d.rows[i].at; !slices.Contains(d.conflicts, t) {
		d.conflicts = append(d.conflicts, t)
	}
}

// prepareDiagram reads a panel's trace: its lanes, its messages, where its
// rows start. The rows are laid out next, on the panel's own time axis or
// on one shared with other panels.
func prepareDiagram(p *Panel) *svgDiagram {
	d := &svgDiagram{topo: p.Topology, events: withoutIdleTimers(p.Events), title: strings.Split(p.Title, "\n"), msgs: map[uint32]*svgMsg{}, unmarked: p.Unmarked, minFont: p.MinFont}
	d.lanes = len(d.topo.Nodes)
	d.head = svgHeadTop + math.Max(0, d.fs(16)-16) + float64(len(d.title)-1)*d.subtitleH()
	tables := 0
	for n := range d.topo.Nodes {
		tables = max(tables, len(d.tables(n)))
	}
	d.top = d.head + svgHeadH + float64(tables)*d.tableH() + 34
	d.gutter = svgGutter
	if d.minFont > 0 {
		// The time column holds its widest time at the larger size.
		widest := svgTextWidth(lang.T("svg.time"), d.fs(10))
		for i := range d.events {
			widest = math.Max(widest, svgTextWidth(lang.Duration(d.events[i].At.String()), d.fs(10)))
			if i > 0 {
				widest = math.Max(widest, svgTextWidth("+"+lang.Duration((d.events[i].At-d.events[i-1].At).String()), d.fs(8.5)))
			}
		}
		d.gutter = math.Max(svgGutter, widest+8+12)
	}
	for i := range d.events {
		e := &d.events[i]
		for _, n := range []sim.NodeID{e.Node, e.Peer} {
			if n != sim.NoNode && int(n) >= d.lanes {
				d.lanes = int(n) + 1
			}
		}
		switch c := report.EventClass(d.topo, e.Kind); c {
		case sim.ClassSend:
			d.msgs[e.Msg.ID] = &svgMsg{send: i}
		case sim.ClassDeliver, sim.ClassDrop, sim.ClassInFlight:
			m := d.msgs[e.Msg.ID]
			if m == nil {
				continue
			}
			switch {
			case c == sim.ClassDeliver:
				m.deliveries = append(m.deliveries, i)
			case c == sim.ClassDrop:
				m.drops = append(m.drops, i)
			case e.Kind == sim.EvSlow || e.Kind == sim.EvLate:
				m.slow = true
			}
		}
	}
	return d
}

// finish measures the laid-out diagram: its width (lanes, titles, labels)
// and its legend.
func (d *svgDiagram) finish() {
	// A dry run of the marks measures the labels beside the lanes.
	var dry strings.Builder
	d.placed = svgPlaced{}
	d.drawMarks(&dry)
	d.drawArrows(&dry)
	d.width = math.Max(svgMinWidth, d.laneX(d.lanes-1)+svgRightPad)
	for k, line := range d.title {
		size := 16.0
		if k > 0 {
			size = 12
		}
		w := svgTextWidth(line, d.fs(size))
		if k == 0 {
			w = svgBoldWidth(line, d.fs(size))
		}
		d.width = math.Max(d.width, 16+w+16)
	}
	for _, p := range d.placed.boxes {
		d.width = math.Max(d.width, p.x1+24)
	}
	d.placed = svgPlaced{}
	d.width = math.Ceil(d.width)
	d.layoutLegend()
	d.height = d.legY + float64(d.legendRows())*svgLegendRowH + 16
}

func (d *svgDiagram) laneX(n int) float64 {
	return d.gutter + svgFirstLane + float64(n)*d.laneGap()
}

func (d *svgDiagram) nodeX(n sim.NodeID) float64 { return d.laneX(int(n)) }

// slotNode is the lane whose row slot event i takes, if any: every event
// takes one slot on its node, in trace order, so several events of one
// node at one time sit one below the other; a message dropped at its
// receiver (down, or a late partition) takes a slot on the receiver; a
// loss at the send, a duplicate or a slow mark take none.
func (d *svgDiagram) slotNode(i int) (sim.NodeID, bool) {
	e := &d.events[i]
	switch report.EventClass(d.topo, e.Kind) {
	case sim.ClassInFlight:
		if svgOnArrow(e.Kind) {
			return 0, false
		}
	case sim.ClassDrop:
		if m := d.msgs[e.Msg.ID]; m != nil && d.events[m.send].At == e.At {
			return 0, false
		}
		if e.Peer != sim.NoNode {
			return e.Peer, true
		}
	}
	if e.Node == sim.NoNode {
		return 0, false
	}
	return e.Node, true
}

// A gap between two rows is drawn as a break when it is svgIdleFactor
// times the median gap, at least svgMinIdle, and always from svgMaxIdle.
const (
	svgIdleFactor = 6
	svgMinIdle    = sim.Time(100)
	svgMaxIdle    = sim.Time(1000) // a gap this long is always a break
	svgIdleH      = 14.0
)

// idleThreshold is the gap between two rows from which it is marked as
// idle time cut out of the picture.
func (d *svgDiagram) idleThreshold() sim.Time {
	var gaps []sim.Time
	for i := 1; i < len(d.events); i++ {
		if g := d.events[i].At - d.events[i-1].At; g > 0 {
			gaps = append(gaps, g)
		}
	}
	if len(gaps) == 0 {
		return 0
	}
	slices.Sort(gaps)
	return max(svgMinIdle, min(gaps[len(gaps)/2]*svgIdleFactor, svgMaxIdle))
}

// groupSlots gives each event of the group [i,j) (one event time) its slot
// on its lane (-1 for none) and returns the most slots one lane needs.
func (d *svgDiagram) groupSlots(i, j int, counters []int) ([]int, int) {
	clear(counters)
	slots := make([]int, j-i)
	for k := i; k < j; k++ {
		slots[k-i] = -1
		if n, ok := d.slotNode(k); ok {
			slots[k-i] = counters[n]
			counters[n]++
		}
	}
	most := 1
	for _, c := range counters {
		most = max(most, c)
	}
	return slots, most
}

// layoutRows gives every event its height: one row per distinct event
// time, on the diagram's own axis, or on axis when panels share one (then
// every panel has every row, at the same place, empty or not).
func (d *svgDiagram) layoutRows(axis *svgAxis) {
	d.y = make([]float64, len(d.events))
	d.rows = nil
	top := d.top
	counters := make([]int, d.lanes)
	idle := d.idleThreshold()
	for i := 0; i < len(d.events); {
		j := i
		for j < len(d.events) && d.events[j].At == d.events[i].At {
			j++
		}
		slots, most := d.groupSlots(i, j, counters)
		var gap sim.Time
		if axis != nil {
			top = axis.rows[axis.index[d.events[i].At]].top
		} else if i > 0 && idle > 0 && d.events[i].At-d.events[i-1].At >= idle {
			gap = d.events[i].At - d.events[i-1].At
			top += svgIdleH
		}
		// Room added to a row (stretch) goes between its slots as well
		// as under them: two events of one time drawn further apart.
		extra := d.extra[d.events[i].At]
		if axis != nil {
			extra = axis.extra[d.events[i].At]
		}
		pitch := svgSlotH + extra/float64(most)
		for k := i; k < j; k++ {
			s := slots[k-i]
			if s >= 0 {
				d.y[k] = top + svgRowPad/2 + float64(s)*pitch + svgSlotH/2
				continue
			}
			d.y[k] = top + svgRowPad/2 + svgSlotH/2
			if m := d.msgs[d.events[k].Msg.ID]; m != nil && m.send < k {
				d.y[k] = d.y[m.send]
			}
		}
		h := float64(most)*svgSlotH + svgRowPad + extra
		if axis == nil {
			d.rows = append(d.rows, svgRow{top: top, height: h, at: d.events[i].At, idle: gap})
		}
		top += h
		i = j
	}
	if axis != nil {
		d.rows = axis.rows
		top = axis.end
	}
	d.bottom = top + svgBottomPad
}

// drawAt writes the diagram as an svg element of its own at (x, y) of a
// larger document: one panel, one column.
func (d *svgDiagram) drawAt(b *strings.Builder, x, y float64) {
	fmt.Fprintf(b, "<svg x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\">\n",
		svgNum(x), svgNum(y), svgNum(d.width), svgNum(d.height), svgNum(d.width), svgNum(d.height))
	d.draw(b)
	b.WriteString("</svg>\n")
}

// draw writes the diagram's elements, back to front.
func (d *svgDiagram) draw(b *strings.Builder) {
	d.placed = svgPlaced{}
	d.drawFrame(b)
	d.drawCrashes(b)
	d.drawPauses(b)
	marks := &strings.Builder{}
	d.drawMarks(marks) // places the mark labels first: arrow labels avoid them
	d.drawArrows(b)
	b.WriteString(marks.String())
	d.drawLegend(b)
}

func (d *svgDiagram) drawFrame(b *strings.Builder) {
	for k, line := range d.title {
		if k == 0 {
			textElement(b, svgEscape(line), "x", "16", "y", svgNum(svgTitleY+math.Max(0, d.fs(16)-16)), "font-size", d.fsAttr(16), "font-weight", "bold", "fill", svgInk)
			continue
		}
		textElement(b, svgEscape(line), "x", "16", "y", svgNum(svgTitleY+math.Max(0, d.fs(16)-16)+float64(k)*d.subtitleH()), "font-size", d.fsAttr(12), "fill", svgMuted)
	}
	// Row bands and times.
	b.WriteString("<g font-size=\"" + d.fsAttr(10) + "\" fill=\"" + svgMuted + "\" text-anchor=\"end\">\n")
	for r, row := range d.rows {
		if r%2 == 1 {
			element(b, "rect", "x", "0", "y", svgNum(row.top), "width", svgNum(d.width), "height", svgNum(row.height), "fill", svgStripe)
		}
		textElement(b, svgEscape(lang.Duration(row.at.String())), "x", svgNum(d.gutter-8), "y", svgNum(row.top+svgRowPad/2+svgSlotH/2+3.5))
	}
	b.WriteString("</g>\n")
	// Idle gaps cut out of the picture.
	for _, row := range d.rows {
		if row.idle == 0 {
			continue
		}
		y := row.top - svgIdleH/2
		element(b, "line", "x1", svgNum(d.gutter), "y1", svgNum(y), "x2", svgNum(d.width), "y2", svgNum(y), "stroke", svgDownGrey, "stroke-width", "1", "stroke-dasharray", "2 4")
		textElement(b, "+"+svgEscape(lang.Duration(row.idle.String())), "x", svgNum(d.gutter-8), "y", svgNum(y+3), "font-size", d.fsAttr(8.5), "fill", svgDownGrey, "text-anchor", "end", "font-style", "italic")
	}
	element(b, "line", "x1", svgNum(d.gutter), "y1", svgNum(d.top-8), "x2", svgNum(d.gutter), "y2", svgNum(d.bottom), "stroke", svgLaneColor, "stroke-width", "1")
	textElement(b, lang.T("svg.time"), "x", svgNum(d.gutter-8), "y", svgNum(d.top-10), "font-size", d.fsAttr(10), "fill", svgMuted, "text-anchor", "end")
	// Lanes and their names.
	for n := 0; n < d.lanes; n++ {
		x := d.laneX(n)
		element(b, "line", "x1", svgNum(x), "y1", svgNum(d.head+svgHeadH), "x2", svgNum(x), "y2", svgNum(d.bottom), "stroke", svgLaneColor, "stroke-width", "2")
		name := d.topo.NodeName(sim.NodeID(n))
		w := math.Max(96, svgBoldWidth(name, d.fs(13))+24)
		element(b, "rect", "x", svgNum(x-w/2), "y", svgNum(d.head), "width", svgNum(w), "height", svgNum(svgHeadH), "rx", "5", "fill", "#eef2f7", "stroke", "#64748b", "stroke-width", "1.2")
		textElement(b, svgEscape(name), "x", svgNum(x), "y", svgNum(d.head+17.5+(d.fs(13)-13)/3), "font-size", d.fsAttr(13), "font-weight", "bold", "fill", svgInk, "text-anchor", "middle")
		for k, t := range d.tables(n) {
			textElement(b, svgEscape(t), "x", svgNum(x), "y", svgNum(d.head+svgHeadH+14+(d.fs(9.5)-9.5)+float64(k)*d.tableH()), "font-size", d.fsAttr(9.5), "fill", svgMuted, "text-anchor", "middle", "", svgHalo)
		}
	}
}

// tables lists the traced tables of node n: "keys (memory)".
func (d *svgDiagram) tables(n int) []string {
	if n >= len(d.topo.Nodes) {
		return nil
	}
	var out []string
	for _, t := range d.topo.Nodes[n].Tables {
		if !t.Traced {
			continue
		}
		kind := lang.T("svg.durable")
		if !t.Durable {
			kind = lang.T("svg.memory")
		}
		out = append(out, t.Name+" ("+kind+")")
	}
	return out
}

// drawCrashes draws each crash as a red zigzag on the lane until the
// node's restart (or the end of the trace).
func (d *svgDiagram) drawCrashes(b *strings.Builder) {
	d.spans(sim.EvCrash, sim.EvRestart, func(x, y0, y1 float64) {
		element(b, "rect", "x", svgNum(x-10), "y", svgNum(y0), "width", "20", "height", svgNum(math.Max(0, y1-y0)), "fill", svgCrashFill)
		var p strings.Builder
		fmt.Fprintf(&p, "M%s %s", svgNum(x), svgNum(y0))
		side := 1.0
		for y := y0 + 4; y < y1; y += 8 {
			fmt.Fprintf(&p, " L%s %s", svgNum(x+5*side), svgNum(y))
			side = -side
		}
		fmt.Fprintf(&p, " L%s %s", svgNum(x), svgNum(y1))
		fmt.Fprintf(b, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-linejoin=\"round\"/>\n", p.String(), svgRed)
	})
}

// drawPauses draws each pause as a blue band with a dotted line on the
// lane until the node's resume: frozen, but with its state.
func (d *svgDiagram) drawPauses(b *strings.Builder) {
	d.spans(sim.EvPause, sim.EvResume, func(x, y0, y1 float64) {
		fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"20\" height=\"%s\" fill=\"%s\"/>\n",
			svgNum(x-10), svgNum(y0), svgNum(math.Max(0, y1-y0)), svgPauseFill)
		fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"2 4\"/>\n",
			svgNum(x), svgNum(y0), svgNum(x), svgNum(y1), svgPauseInk)
	})
}

// spans calls draw, in trace order, for each stretch of a node's lane from
// an event of kind from to the node's next event of kind until (or the
// end of the trace): the lane's x, and the stretch's top and bottom.
func (d *svgDiagram) spans(from, until sim.EventKind, draw func(x, y0, y1 float64)) {
	for i := range d.events {
		e := &d.events[i]
		if e.Kind != from || e.Node == sim.NoNode {
			continue
		}
		y0, y1 := d.y[i], d.bottom-svgBottomPad/2
		for k := i + 1; k < len(d.events); k++ {
			if d.events[k].Kind == until && d.events[k].Node == e.Node {
				y1 = d.y[k]
				break
			}
		}
		draw(d.nodeX(e.Node), y0, y1)
	}
}

// msgText names a message on its arrow: "pay op-2 #1 key 2000001" (the
// key it carries, when it carries one).
func (d *svgDiagram) msgText(m *sim.Message) string {
	var b strings.Builder
	b.WriteString(d.topo.MessageName(m.Kind))
	if m.Op != 0 {
		b.WriteString(" " + m.Op.String())
	}
	if m.Attempt != 0 {
		b.WriteString(" #" + strconv.Itoa(int(m.Attempt)))
	}
	if m.Key != 0 {
		b.WriteString(" key " + strconv.FormatInt(m.Key, 10))
	}
	return b.String()
}

func (d *svgDiagram) drawArrows(b *strings.Builder) {
	var lines, labels, marks strings.Builder // back to front
	// Two passes: the words under the crosses of dropped messages take
	// their places first, then the arrows' labels find room around them.
	words := map[int]string{} // drop event → its word; looked up only
	for _, place := range []bool{true, false} {
		d.arrowPass(&lines, &labels, &marks, words, place)
	}
	b.WriteString(lines.String())
	b.WriteString(labels.String())
	b.WriteString(marks.String())
}

// arrowPass walks the sent messages: with words set, it places the word
// under each dropped message's cross (words, by drop event); otherwise it
// draws the arrows, their labels and the crosses.
func (d *svgDiagram) arrowPass(lines, labels, marks *strings.Builder, words map[int]string, place bool) {
	for i := range d.events {
		e := &d.events[i]
		if report.EventClass(d.topo, e.Kind) != sim.ClassSend {
			continue
		}
		m := d.msgs[e.Msg.ID]
		if m == nil || m.send != i || e.Node == sim.NoNode {
			continue
		}
		x0, y0 := d.nodeX(e.Node), d.y[i]
		to := e.Peer
		if to == sim.NoNode {
			to = e.Msg.To
		}
		xt := d.nodeX(to)
		text := d.msgText(&e.Msg)
		color := svgOpColor(e.Msg.Op)
		dash := ""
		if m.slow {
			dash = "6 4"
			text += " (slow)"
		}
		for k, di := range m.deliveries {
			t := text
			if k > 0 {
				t += " (dup)"
			}
			dst := d.events[di].Node
			if dst == sim.NoNode {
				dst = to
			}
			if !place {
				d.arrow(lines, labels, x0, y0, d.nodeX(dst), d.y[di], color, dash, t, true)
			}
		}
		for _, di := range m.drops {
			drop := &d.events[di]
			if d.events[m.send].At != drop.At && drop.Peer != sim.NoNode {
				// Dropped on arrival: the receiver was down (or a
				// partition cut it late). Stop short of its lane.
				xr := d.nodeX(drop.Peer)
				dir := 1.0
				if xr < x0 {
					dir = -1
				}
				line, col, why := svgDownGrey, svgDownGrey, lang.T("svg.receiver_down")
				if drop.Reason != sim.DropDown {
					line, col, why = color, svgRed, lang.Word("svg", drop.Reason.String())
				}
				x1, y1 := xr-dir*30, d.y[di]
				if place {
					words[di] = d.dropLabel(x1, y1, -dir, d.dropWhy(drop, why), col)
					continue
				}
				d.arrow(lines, labels, x0, y0, x1, y1, line, "4 3", text, false)
				d.cross(marks, x1, y1, col)
				marks.WriteString(words[di])
				continue
			}
			x1, y1 := x0+(xt-x0)/2, y0+svgLostDY
			if xt == x0 {
				x1 = x0 + 40
			}
			why := lang.Word("svg", "lost")
			if drop.Reason == sim.DropPartition {
				why = lang.Word("svg", "partition")
			} else if drop.Reason == sim.DropDown {
				why = lang.T("svg.receiver_down")
			}
			line, col := color, svgRed
			if drop.Reason == sim.DropDown {
				line, col = svgDownGrey, svgDownGrey
			}
			if place {
				words[di] = d.dropLabel(x1, y1, 0, d.dropWhy(drop, why), col)
				continue
			}
			d.arrow(lines, labels, x0, y0, x1, y1, line, "4 3", text, false)
			d.cross(marks, x1, y1, col)
			marks.WriteString(words[di])
		}
		if len(m.deliveries) == 0 && len(m.drops) == 0 && !place {
			x1, y1 := x0+(xt-x0)/2, y0+svgLostDY
			d.arrow(lines, labels, x0, y0, x1, y1, color, "1 3", text+" (in flight)", true)
		}
	}
}

// dropWhy is the word under a dropped message's cross: why, after the
// kind's label for a drop-class kind other than the plain drop.
func (d *svgDiagram) dropWhy(e *sim.Event, why string) string {
	if e.Kind == sim.EvDrop {
		return why
	}
	return report.EventLabel(d.topo, e.Kind) + ": " + why
}

// cross draws the ✕ where a dropped message ends.
func (d *svgDiagram) cross(b *strings.Builder, x, y float64, color string) {
	const r = 5.5
	fmt.Fprintf(b, "<path d=\"M%s %sL%s %sM%s %sL%s %s\" stroke=\"%s\" stroke-width=\"3\" stroke-linecap=\"round\"/>\n",
		svgNum(x-r), svgNum(y-r), svgNum(x+r), svgNum(y+r), svgNum(x-r), svgNum(y+r), svgNum(x+r), svgNum(y-r), color)
}

// dropLabel reserves the places of the cross at (x,y) and of the short
// bold word under it ("lost", "receiver down"), centred (side 0) or ending
// under the cross on the sender's side (side -1 when the message went
// right, +1 when it went left), and returns both elements to write once
// the arrow's own label has been placed around them.
func (d *svgDiagram) dropLabel(x, y, side float64, text, color string) string {
	const r = 5.5
	size := d.fs(10)
	w := svgBoldWidth(text, size)
	cross := svgBox{x - r - 1, y - r - 1, x + r + 1, y + r + 1}
	if d.placed.overlap(cross) > 0 {
		d.conflict(y)
	}
	d.placed.add(cross)
	// Under the cross as asked, else under it on either side, else above
	// it: the first place clear of the labels drawn.
	type spot struct {
		anchor string
		tx, x0 float64
		dy     float64
	}
	var spots []spot
	below, above := r+2+0.76*size+1, -(r + 2 + 0.22*size + 1)
	for _, dy := range []float64{below, above, below + size + 2, above - size - 2} {
		centred := spot{"middle", x, x - w/2, dy}
		ending := spot{"end", x + r, x + r - w, dy}
		starting := spot{"start", x - r, x - r, dy}
		switch {
		case side < 0:
			spots = append(spots, ending, centred, starting)
		case side > 0:
			spots = append(spots, starting, centred, ending)
		default:
			spots = append(spots, centred, ending, starting)
		}
	}
	pick := spots[0]
	for _, sp := range spots {
		if d.placed.overlap(svgTextBox(sp.x0, y+sp.dy, w, size)) == 0 {
			pick = sp
			break
		}
	}
	word := svgTextBox(pick.x0, y+pick.dy, w, size)
	if d.placed.overlap(word) > 0 {
		d.conflict(y + pick.dy)
	}
	d.placed.add(word)
	return fmt.Sprintf("<text x=\"%s\" y=\"%s\" font-size=\"%s\" font-weight=\"bold\" fill=\"%s\" text-anchor=\"%s\"%s>%s</text>\n",
		svgNum(pick.tx), svgNum(y+pick.dy), svgNum(size), color, pick.anchor, svgHalo, svgEscape(text))
}

// svgHalo outlines text in white so it reads over the lines it crosses.
const svgHalo = ` stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"`

// arrow draws a message line from (x0,y0) to (x1,y1), with a head when
// head is set, and its label along it where it overlaps the fewest labels.
func (d *svgDiagram) arrow(lines, labels *strings.Builder, x0, y0, x1, y1 float64, color, dash, text string, head bool) {
	dashAttr := ""
	if dash != "" {
		dashAttr = " stroke-dasharray=\"" + dash + "\""
	}
	if x0 == x1 {
		// A message to the sending node itself: a loop to the right.
		fmt.Fprintf(lines, "<path d=\"M%s %s C%s %s %s %s %s %s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s/>\n",
			svgNum(x0), svgNum(y0), svgNum(x0+48), svgNum(y0), svgNum(x0+48), svgNum(y1), svgNum(x0+2), svgNum(y1), color, dashAttr)
		if head {
			d.arrowHead(lines, x0+40, y1, x0+1, y1, color)
		}
		d.placeLabel(labels, x0+50, y0, x0+50, y1+1, text, color)
		return
	}
	element(lines, "line", "x1", svgNum(x0), "y1", svgNum(y0), "x2", svgNum(x1), "y2", svgNum(y1), "stroke", color, "stroke-width", "1.6", "", dashAttr)
	if head {
		d.arrowHead(lines, x0, y0, x1, y1, color)
	}
	d.placeLabel(labels, x0, y0, x1, y1, text, color)
}

// arrowHead draws an arrowhead at (x1,y1) pointing along (x0,y0)→(x1,y1).
func (d *svgDiagram) arrowHead(b *strings.Builder, x0, y0, x1, y1 float64, color string) {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	ux, uy := dx/l, dy/l
	const length, half = 9.0, 4.0
	bx, by := x1-ux*length, y1-uy*length
	fmt.Fprintf(b, "<path d=\"M%s %sL%s %sL%s %sZ\" fill=\"%s\"/>\n",
		svgNum(x1), svgNum(y1), svgNum(bx-uy*half), svgNum(by+ux*half), svgNum(bx+uy*half), svgNum(by-ux*half), color)
}

// svgLabelSpots are the places along an arrow its label may go, best
// first, after the middles of the lane gaps it crosses.
var svgLabelSpots = [...]float64{0.5, 0.45, 0.55, 0.4, 0.6, 0.35, 0.65, 0.3, 0.7, 0.25, 0.75, 0.2, 0.8, 0.15, 0.85, 0.1, 0.9}

// labelSpots lists where a label may sit along a segment, as fractions:
// first the middle of each gap between two lanes the segment spans
// (nearest the segment's middle first), so that a label never sits on a
// lane it crosses, then the fixed spots.
func (d *svgDiagram) labelSpots(x0, x1 float64) []float64 {
	var spots []float64
	lo, hi := math.Min(x0, x1), math.Max(x0, x1)
	if hi-lo > d.laneGap()*1.5 {
		prev := lo
		for n := 0; n <= d.lanes; n++ {
			x := hi
			if n < d.lanes {
				x = d.laneX(n)
			}
			if x <= prev+1 {
				continue
			}
			if x > hi {
				x = hi
			}
			spots = append(spots, ((prev+x)/2-x0)/(x1-x0))
			prev = x
			if x >= hi {
				break
			}
		}
		slices.SortStableFunc(spots, func(a, b float64) int {
			da, db := math.Abs(a-0.5), math.Abs(b-0.5)
			switch {
			case da < db:
				return -1
			case da > db:
				return 1
			}
			return 0
		})
	}
	return append(spots, svgLabelSpots[:]...)
}

// placeLabel writes text along the segment, just above it (or else just
// below it), at the first spot whose box — rotated with the segment, as
// drawn — overlaps no label already drawn and crosses no lane; failing
// that, at the spot that overlaps no label, then the one that overlaps
// least, and notes the conflict (see stretch).
func (d *svgDiagram) placeLabel(b *strings.Builder, x0, y0, x1, y1 float64, text, color string) {
	size := d.fs(10)
	dx, dy := x1-x0, y1-y0
	angle := math.Atan2(dy, dx)
	if dx < 0 {
		angle += math.Pi // keep text upright
	}
	c, s := math.Cos(angle), math.Sin(angle)
	nx, ny := s, -c // the normal pointing up the screen
	best, bestCost, bestOverlap := -1, math.Inf(1), 0.0
	var bestCorners [4][2]float64
	var bx, by float64
	spots := d.labelSpots(x0, x1)
	// The whole label first; where it fits nowhere, shorter forms of it
	// (without the key, then the operation and attempt alone: the colour
	// names the operation too).
	forms := svgLabelForms(text)
	form := 0
	w := svgTextWidth(text, size)
	for k := range 2 * len(spots) * len(forms) {
		if f := k / (2 * len(spots)); f != form || k == 0 {
			if bestOverlap == 0 && best >= 0 {
				break // the longer form fits, across a lane at worst
			}
			form = f
			w = svgTextWidth(forms[f], size)
		}
		k := k % (2 * len(spots))
		// Above the line at every spot, then below it.
		f, off := spots[k%len(spots)], 3.0
		if k >= len(spots) {
			off = -(3 + size*0.75)
		}
		px, py := x0+dx*f+nx*off, y0+dy*f+ny*off
		corners := svgTextCorners(px, py, w, size, c, s, 1)
		o := d.placed.overlapCorners(corners)
		lanes := 0.0
		box := svgBounds(corners)
		for n := 0; n < d.lanes; n++ {
			if x := d.laneX(n); box.x0 < x && x < box.x1 {
				lanes += box.y1 - box.y0
			}
		}
		if box.x0 < 0 || box.y0 < 0 {
			lanes += 1000 // off the picture
		}
		cost := lanes + 10*o
		if o > 0 {
			cost += 1e6 // a lane crossed reads; a label on a label does not
		}
		if cost < bestCost {
			best, bestCost, bestOverlap, bestCorners, bx, by = k, cost, o, corners, px, py
			text = forms[form]
		}
		if cost == 0 {
			break
		}
	}
	if best < 0 {
		return
	}
	if bestOverlap > 0 {
		d.conflict(by)
	}
	d.placed.addCorners(bestCorners)
	deg := angle * 180 / math.Pi
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" font-size=\"%s\" fill=\"%s\" text-anchor=\"middle\" transform=\"rotate(%s %s %s)\"%s>%s</text>\n",
		svgNum(bx), svgNum(by), svgNum(size), color, svgNum(deg), svgNum(bx), svgNum(by), svgHalo, svgEscape(text))
}

var svgKeyWords = regexp.MustCompile(` key -?[0-9]+`)

// svgLabelForms are the forms of an arrow's label, longest first: as
// given, without its key, from its operation on ("op-2 #1 (dup)").
func svgLabelForms(text string) []string {
	forms := []string{text}
	if short := svgKeyWords.ReplaceAllString(text, ""); short != text {
		forms = append(forms, short)
	}
	if i := strings.Index(text, " op-"); i > 0 {
		forms = append(forms, svgKeyWords.ReplaceAllString(text[i+1:], ""))
	}
	return forms
}

// svgTextBox is the box of a text of width w and font size size starting
// at x on the baseline y, with a pixel to spare on every side: the box the
// checker (svgtext) measures, grown.
func svgTextBox(x, y, w, size float64) svgBox {
	return svgBox{x - 1, y - 0.76*size - 1, x + w + 1, y + 0.22*size + 1}
}

// svgTextCorners are the corners of a text of width w and font size size
// whose baseline's middle is at (x,y), rotated by the angle of cosine c
// and sine s about that point, grown by margin on every side: the box the
// checker (svgtext) measures, with room to spare.
func svgTextCorners(x, y, w, size, c, s, margin float64) [4][2]float64 {
	x0, x1 := -w/2-margin, w/2+margin
	y0, y1 := -0.76*size-margin, 0.22*size+margin
	var out [4][2]float64
	for k, p := range [4][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} {
		out[k] = [2]float64{x + p[0]*c - p[1]*s, y + p[0]*s + p[1]*c}
	}
	return out
}

// markLabel writes a label to the right of a node's lane and reserves its
// place.
func (d *svgDiagram) markLabel(b *strings.Builder, x, y float64, text, color, weight string, size float64) svgBox {
	flipless := size == 11 // an effect's label sits on its box
	size = d.fs(size)
	var w float64
	var box svgBox
	measure := func() { // w and box of text at x
		w = svgTextWidth(text, size)
		if weight == "bold" {
			w = svgBoldWidth(text, size)
		}
		box = svgTextBox(x, y, w, size)
	}
	shorten := func() { // one character less, and an ellipsis
		r := []rune(strings.TrimSuffix(text, "…"))
		text = string(r[:len(r)-1]) + "…"
		measure()
	}
	measure()
	if d.minFont > 0 && !flipless {
		// Drawn large (a slide): kept short of the next lane.
		for n := 0; n < d.lanes; n++ {
			if lx := d.laneX(n); lx > x {
				for box.x1 > lx-8 && len([]rune(text)) > 4 {
					shorten()
				}
				break
			}
		}
	}
	if d.placed.overlap(box) > 0 && !flipless {
		// A label (not an effect's, on its box) that runs into another:
		// on the lane's other side if there it is clear.
		for n := 0; n < d.lanes; n++ {
			if lx := d.laneX(n); x > lx && x-lx <= 20 {
				left := svgTextBox(2*lx-x-w, y, w, size)
				if left.x0 > 0 && d.placed.overlap(left) == 0 {
					x, box = 2*lx-x-w, left
				}
				break
			}
		}
	}
	for d.placed.overlap(box) > 0 && !flipless && len([]rune(text)) > 4 && box.x1 > x {
		shorten() // still in another's way: a character at a time
	}
	if d.placed.overlap(box) > 0 {
		d.conflict(y)
	}
	d.placed.add(box)
	wa := ""
	if weight != "" {
		wa = " font-weight=\"" + weight + "\""
	}
	textElement(b, svgEscape(text), "x", svgNum(x), "y", svgNum(y), "font-size", svgNum(size), "fill", color, "", wa, "", svgHalo)
	return box
}

// drawMarks draws what happens on a lane: timers, store reads and writes,
// effects, crashes and restarts, client outcomes.
func (d *svgDiagram) drawMarks(b *strings.Builder) {
	effects := map[[2]int64]int{} // (sink, op) → effects so far; looked up only
	for i := range d.events {
		e := &d.events[i]
		if e.Node == sim.NoNode {
			continue
		}
		x, y := d.nodeX(e.Node), d.y[i]
		m := &e.Msg
		switch report.EventClass(d.topo, e.Kind) {
		case sim.ClassTimer:
			element(b, "circle", "cx", svgNum(x), "cy", svgNum(y), "r", "5", "fill", "#ffffff", "stroke", svgMuted, "stroke-width", "1.3")
			fmt.Fprintf(b, "<path d=\"M%s %sV%sH%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.1\"/>\n",
				svgNum(x), svgNum(y-3.2), svgNum(y), svgNum(x+2.6), svgMuted)
			t := d.topo.TimerName(sim.TimerKind(e.Label))
			if m.Op != 0 {
				t += " " + m.Op.String()
			}
			if m.Attempt != 0 {
				t += " #" + strconv.Itoa(int(m.Attempt))
			}
			d.markLabel(b, x+10, y+3.5, t, svgMuted, "", 9)
		case sim.ClassStore:
			table := d.topo.TableName(e.Node, sim.TableID(e.Label)) + "[" + strconv.FormatInt(m.Key, 10) + "]"
			var t, fill string
			switch e.Kind {
			case sim.EvStoreGet:
				fill = "#ffffff"
				t = lang.Tf("svg.get_missing", map[string]any{"Table": table})
				if e.Found {
					t = lang.Tf("svg.get", map[string]any{"Table": table, "State": report.StateName(d.topo, e.Node, e.Table(), e.Rec.State)})
				}
			case sim.EvStorePut:
				fill = svgStore
				t = lang.Tf("svg.put", map[string]any{"Table": table, "State": report.StateName(d.topo, e.Node, e.Table(), e.Rec.State)})
			case sim.EvStoreDelete:
				fill = "#e5e7eb"
				t = lang.Tf("svg.delete", map[string]any{"Table": table})
				if e.Found {
					t = lang.Tf("svg.expire", map[string]any{"Table": table})
				}
			default:
				fill = "#ffffff"
				t = report.EventLabel(d.topo, e.Kind) + " " + table
			}
			element(b, "rect", "x", svgNum(x+6), "y", svgNum(y-4), "width", "8", "height", "8", "fill", fill, "stroke", svgStore, "stroke-width", "1.3")
			if e.Kind == sim.EvStoreDelete {
				fmt.Fprintf(b, "<path d=\"M%s %sL%s %s\" stroke=\"%s\" stroke-width=\"1.3\"/>\n", svgNum(x+6), svgNum(y+4), svgNum(x+14), svgNum(y-4), svgStore)
			}
			d.markLabel(b, x+18, y+3.5, t, svgStore, "", 9.5)
		case sim.ClassEffect:
			k := [2]int64{int64(e.Label), int64(m.Op)}
			effects[k]++
			n := effects[k]
			t := d.topo.SinkName(sim.SinkID(e.Label)) + " " + m.Op.String()
			if m.Value != 0 {
				t += " · " + strconv.FormatInt(m.Value, 10) // its transaction id: two charges, two ids
			}
			fill, stroke, bg, ink := svgStarFill, svgStarStroke, svgStarBg, svgStarStroke
			if n > 1 && !d.unmarked {
				t += lang.Tf("svg.nth_effect", map[string]any{"Nth": report.Ordinal(n), "N": n})
				fill, stroke, bg, ink = svgRed, svgDarkRed, svgDupBg, svgDarkRed
			}
			w := svgBoldWidth(t, d.fs(11)) + 10
			bh := math.Max(17, d.fs(11)+6)
			element(b, "rect", "x", svgNum(x+11), "y", svgNum(y-bh/2), "width", svgNum(w), "height", svgNum(bh), "rx", "4", "fill", bg, "stroke", stroke, "stroke-width", "1")
			fmt.Fprintf(b, "<path d=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.3\" stroke-linejoin=\"round\"/>\n",
				svgStar(x, y, 9, 4), fill, stroke)
			d.markLabel(b, x+16, y+4, t, ink, "bold", 11)
		case sim.ClassOutcome:
			fmt.Fprintf(b, "<path d=\"M%s %sL%s %sL%s %s\" fill=\"none\" stroke=\"%s\" stroke-width=\"3\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n",
				svgNum(x-5), svgNum(y), svgNum(x-1.5), svgNum(y+4), svgNum(x+6), svgNum(y-5), svgGreen)
			t := lang.Tf("svg.done", map[string]any{"Op": m.Op.String()})
			if m.Status != 0 {
				t += ": " + strconv.Itoa(int(m.Status))
			}
			if v := m.Value; v != 0 {
				t += lang.Tf("svg.value", map[string]any{"Value": strconv.FormatInt(v, 10)})
			}
			d.markLabel(b, x+12, y+4, t, svgGreen, "bold", 10)
		case sim.ClassStop:
			ink := svgRed
			t := report.EventLabel(d.topo, e.Kind) + " " + d.topo.PointName(sim.PointID(e.Label))
			switch e.Kind {
			case sim.EvCrash:
				t = lang.Tf("svg.crash", map[string]any{"Point": d.topo.PointName(sim.PointID(e.Label))})
			case sim.EvPause:
				ink = svgPauseInk
				t = lang.Tf("svg.pause", map[string]any{"Point": d.topo.PointName(sim.PointID(e.Label)), "For": lang.Duration(sim.Time(m.Value).String())})
			}
			fmt.Fprintf(b, "<path d=\"M%s %sH%s\" stroke=\"%s\" stroke-width=\"4\" stroke-linecap=\"round\"/>\n",
				svgNum(x-10), svgNum(y), svgNum(x+10), ink)
			if m.Op != 0 {
				t += " (" + m.Op.String() + " #" + strconv.Itoa(int(m.Attempt)) + ")"
			}
			d.markLabel(b, x+14, y+4, t, ink, "bold", 10)
		case sim.ClassStart:
			ink, t := svgGreen, report.EventLabel(d.topo, e.Kind)
			switch e.Kind {
			case sim.EvRestart:
				t = lang.T("svg.restart")
			case sim.EvResume:
				ink, t = svgPauseInk, lang.T("svg.resume")
			}
			fmt.Fprintf(b, "<path d=\"M%s %sH%s\" stroke=\"%s\" stroke-width=\"4\" stroke-linecap=\"round\"/>\n",
				svgNum(x-10), svgNum(y), svgNum(x+10), ink)
			d.markLabel(b, x+14, y+4, t, ink, "bold", 10)
		case sim.ClassInFlight:
			// A duplicate, a slow or a late message is marked on its
			// arrow ("(dup)", "(slow)"); any other kind (a preemption)
			// is a mark on its node's lane: its label, the peer and the
			// message.
			if svgOnArrow(e.Kind) {
				continue
			}
			element(b, "circle", "cx", svgNum(x), "cy", svgNum(y), "r", "4", "fill", "#ffffff", "stroke", svgPauseInk, "stroke-width", "1.3")
			t := report.EventLabel(d.topo, e.Kind) + " → " + d.topo.NodeName(e.Peer) + " " + d.topo.MessageName(m.Kind)
			if m.Op != 0 {
				t += " " + m.Op.String()
			}
			d.markLabel(b, x+10, y+3.5, t, svgPauseInk, "", 9)
		}
	}
}

// svgOnArrow reports whether events of kind k are drawn on their
// message's arrow rather than as a mark of their own.
func svgOnArrow(k sim.EventKind) bool {
	return k == sim.EvDuplicate || k == sim.EvSlow || k == sim.EvLate
}

// svgStar is the path of a five-pointed star centred on (x,y).
func svgStar(x, y, outer, inner float64) string {
	var b strings.Builder
	for k := 0; k < 10; k++ {
		r := outer
		if k%2 == 1 {
			r = inner
		}
		a := -math.Pi/2 + float64(k)*math.Pi/5
		cmd := "L"
		if k == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&b, "%s%s %s", cmd, svgNum(x+r*math.Cos(a)), svgNum(y+r*math.Sin(a)))
	}
	b.WriteString("Z")
	return b.String()
}

// svgLegendItem is one entry of the legend: an icon and its meaning.
type svgLegendItem struct {
	icon string
	text string
	x, y float64
}

// svgLegendTexts are the legend's entries, messages first; an empty
// entry starts a new line.
var svgLegendTexts = [...][2]string{
	{"arrow", "message, coloured by op"},
	{"lost", "lost message"},
	{"down", "to a crashed node"},
	{"slowmsg", "slow message"},
	{"dupcopy", "(dup) duplicate copy"},
	{"", ""},
	{"effect", "effect on a sink"},
	{"dupeffect", "2nd effect of one op"},
	{"get", "store read"},
	{"put", "store write"},
	{"crashed", "crashed until restart"},
	{"paused", "paused until resume"},
	{"outcome", "client outcome"},
	{"timer", "timer"},
}

const svgLegendIconW = 34.0

func (d *svgDiagram) layoutLegend() {
	d.legY = d.bottom + 18
	left := 16 + math.Max(52, svgBoldWidth(lang.T("svg.legend"), d.fs(10))+12)
	x, y := left, d.legY
	d.legend = d.legend[:0]
	for _, it := range svgLegendTexts {
		if it[0] == "" {
			x, y = left, y+svgLegendRowH
			continue
		}
		if it[0] == "paused" && !d.hasPause() {
			continue // only traces with a pause explain it
		}
		if it[0] == "dupeffect" && d.unmarked {
			continue
		}
		text := lang.Word("legend", it[1])
		w := svgLegendIconW + 6 + svgTextWidth(text, d.fs(10)) + 18
		if x+w > d.width-12 && x > left {
			x, y = left, y+svgLegendRowH
		}
		d.legend = append(d.legend, svgLegendItem{icon: it[0], text: text, x: x, y: y})
		x += w
	}
}

// hasPause reports whether the trace has a pause.
func (d *svgDiagram) hasPause() bool {
	for i := range d.events {
		if d.events[i].Kind == sim.EvPause {
			return true
		}
	}
	return false
}

func (d *svgDiagram) legendRows() int {
	if len(d.legend) == 0 {
		return 0
	}
	return int((d.legend[len(d.legend)-1].y-d.legY)/svgLegendRowH) + 1
}

func (d *svgDiagram) drawLegend(b *strings.Builder) {
	element(b, "line", "x1", "16", "y1", svgNum(d.legY-12), "x2", svgNum(d.width-16), "y2", svgNum(d.legY-12), "stroke", svgLaneColor, "stroke-width", "1")
	textElement(b, lang.T("svg.legend"), "x", "16", "y", svgNum(d.legY+4), "font-size", d.fsAttr(10), "font-weight", "bold", "fill", svgInk)
	for _, it := range d.legend {
		x, y := it.x, it.y
		switch it.icon {
		case "arrow":
			element(b, "line", "x1", svgNum(x), "y1", svgNum(y-4), "x2", svgNum(x+svgLegendIconW), "y2", svgNum(y+4), "stroke", svgOpColors[0], "stroke-width", "1.6")
			d.arrowHead(b, x, y-4, x+svgLegendIconW, y+4, svgOpColors[0])
		case "lost", "down":
			col, mark := svgOpColors[1], svgRed
			if it.icon == "down" {
				col, mark = svgDownGrey, svgDownGrey
			}
			element(b, "line", "x1", svgNum(x), "y1", svgNum(y-4), "x2", svgNum(x+svgLegendIconW-8), "y2", svgNum(y+3), "stroke", col, "stroke-width", "1.6", "stroke-dasharray", "4 3")
			d.cross(b, x+svgLegendIconW-6, y+3, mark)
		case "slowmsg":
			element(b, "line", "x1", svgNum(x), "y1", svgNum(y-4), "x2", svgNum(x+svgLegendIconW), "y2", svgNum(y+4), "stroke", svgOpColors[2], "stroke-width", "1.6", "stroke-dasharray", "6 4")
			d.arrowHead(b, x, y-4, x+svgLegendIconW, y+4, svgOpColors[2])
		case "dupcopy":
			for _, dy := range []float64{-2, 8} {
				element(b, "line", "x1", svgNum(x), "y1", svgNum(y-6), "x2", svgNum(x+svgLegendIconW), "y2", svgNum(y+dy), "stroke", svgOpColors[0], "stroke-width", "1.6")
				d.arrowHead(b, x, y-6, x+svgLegendIconW, y+dy, svgOpColors[0])
			}
		case "effect", "dupeffect":
			fill, stroke := svgStarFill, svgStarStroke
			if it.icon == "dupeffect" {
				fill, stroke = svgRed, svgDarkRed
			}
			fmt.Fprintf(b, "<path d=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.3\" stroke-linejoin=\"round\"/>\n", svgStar(x+svgLegendIconW/2, y, 9, 4), fill, stroke)
		case "get", "put":
			fill := "#ffffff"
			if it.icon == "put" {
				fill = svgStore
			}
			element(b, "rect", "x", svgNum(x+svgLegendIconW/2-4), "y", svgNum(y-4), "width", "8", "height", "8", "fill", fill, "stroke", svgStore, "stroke-width", "1.3")
		case "paused":
			cx := x + svgLegendIconW/2
			element(b, "rect", "x", svgNum(cx-10), "y", svgNum(y-10), "width", "20", "height", "20", "fill", svgPauseFill)
			element(b, "line", "x1", svgNum(cx), "y1", svgNum(y-10), "x2", svgNum(cx), "y2", svgNum(y+10), "stroke", svgPauseInk, "stroke-width", "2", "stroke-dasharray", "2 4")
		case "crashed":
			cx := x + svgLegendIconW/2
			element(b, "rect", "x", svgNum(cx-10), "y", svgNum(y-10), "width", "20", "height", "20", "fill", svgCrashFill)
			fmt.Fprintf(b, "<path d=\"M%s %sL%s %sL%s %sL%s %sL%s %s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n",
				svgNum(cx), svgNum(y-10), svgNum(cx+5), svgNum(y-6), svgNum(cx-5), svgNum(y+2), svgNum(cx+5), svgNum(y+6), svgNum(cx), svgNum(y+10), svgRed)
		case "outcome":
			cx := x + svgLegendIconW/2
			fmt.Fprintf(b, "<path d=\"M%s %sL%s %sL%s %s\" fill=\"none\" stroke=\"%s\" stroke-width=\"3\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n",
				svgNum(cx-5), svgNum(y), svgNum(cx-1.5), svgNum(y+4), svgNum(cx+6), svgNum(y-5), svgGreen)
		case "timer":
			cx := x + svgLegendIconW/2
			element(b, "circle", "cx", svgNum(cx), "cy", svgNum(y), "r", "5", "fill", "#ffffff", "stroke", svgMuted, "stroke-width", "1.3")
		}
		textElement(b, svgEscape(it.text), "x", svgNum(x+svgLegendIconW+6), "y", svgNum(y+3.5), "font-size", d.fsAttr(10), "fill", svgInk)
	}
}
