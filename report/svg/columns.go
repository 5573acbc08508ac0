package svg

import (
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/oncesim/once/sim"
)

// svgAxis is one compressed time axis shared by panels side by side: one
// row per distinct event time of any panel, as tall as the panel that
// needs the most slots at that time, so that one time sits at one height
// in every column.
type svgAxis struct {
	rows  []svgRow
	index map[sim.Time]int     // event time → row; looked up only
	end   float64              // bottom of the last row
	extra map[sim.Time]float64 // room added under a row (svgDiagram.extra); looked up only
}

func newSVGAxis(ds []*svgDiagram, extra map[sim.Time]float64) *svgAxis {
	top := 0.0
	most := map[sim.Time]int{}
	var times []sim.Time
	for _, d := range ds {
		top = math.Max(top, d.top)
		counters := make([]int, d.lanes)
		for i := 0; i < len(d.events); {
			j := i
			for j < len(d.events) && d.events[j].At == d.events[i].At {
				j++
			}
			_, m := d.groupSlots(i, j, counters)
			t := d.events[i].At
			if _, seen := most[t]; !seen {
				times = append(times, t)
			}
			most[t] = max(most[t], m)
			i = j
		}
	}
	slices.Sort(times)
	idle := idleThresholdOf(times)
	a := &svgAxis{index: map[sim.Time]int{}, extra: extra}
	for k, t := range times {
		var gap sim.Time
		if k > 0 && idle > 0 && t-times[k-1] >= idle {
			gap = t - times[k-1]
			top += svgIdleH
		}
		h := float64(most[t])*svgSlotH + svgRowPad + extra[t]
		a.index[t] = len(a.rows)
		a.rows = append(a.rows, svgRow{top: top, height: h, at: t, idle: gap})
		top += h
	}
	a.end = top
	return a
}

// idleThresholdOf is idleThreshold over sorted distinct times.
func idleThresholdOf(times []sim.Time) sim.Time {
	var gaps []sim.Time
	for k := 1; k < len(times); k++ {
		gaps = append(gaps, times[k]-times[k-1])
	}
	if len(gaps) == 0 {
		return 0
	}
	slices.Sort(gaps)
	return max(svgMinIdle, min(gaps[len(gaps)/2]*svgIdleFactor, svgMaxIdle))
}

// Geometry of the column layout.
const (
	svgHeadingH    = 58.0 // the document's heading above the columns
	svgColumnGap   = 28.0 // between two columns, a rule in the middle
	svgHeadingSize = 20.0
)

// WriteColumns writes one SVG document with the panels side by side, as
// columns on one shared time axis: the same event time at the same height
// in every column, so one schedule under several semantics reads across.
// heading (its lines split at "\n") goes above the columns.
func WriteColumns(w io.Writer, heading string, panels []Panel) error {
	ds := make([]*svgDiagram, len(panels))
	for i := range panels {
		ds[i] = prepareDiagram(&panels[i])
	}
	top := 0.0
	for _, d := range ds {
		top = math.Max(top, d.top)
	}
	for _, d := range ds {
		d.head += top - d.top
		d.top = top
	}
	// One axis for all, stretched under the rows (times) where a column's
	// labels collide, until none do.
	extra := map[sim.Time]float64{} // looked up only
	fewest, best := -1, map[sim.Time]float64(nil)
	for range svgMaxStretch {
		axis := newSVGAxis(ds, extra)
		var conflicts []sim.Time
		for _, d := range ds {
			d.layoutRows(axis)
			for _, t := range d.conflictRows() {
				if !slices.Contains(conflicts, t) {
					conflicts = append(conflicts, t)
				}
			}
		}
		if fewest < 0 || len(conflicts) < fewest {
			fewest, best = len(conflicts), maps.Clone(extra)
		}
		if len(conflicts) == 0 {
			break
		}
		for _, t := range conflicts {
			extra[t] += svgSlotH
		}
	}
	axis := newSVGAxis(ds, best)
	for _, d := range ds {
		d.layoutRows(axis)
	}
	width, height := 0.0, 0.0
	for i, d := range ds {
		d.finish()
		if i > 0 {
			width += svgColumnGap
		}
		width += d.width
	}
	// One legend height for all: the tallest.
	for _, d := range ds {
		height = math.Max(height, d.height)
	}
	lines := strings.Split(heading, "\n")
	headH := svgHeadingH + float64(len(lines)-1)*svgSubtitleH
	for k, line := range lines {
		w := svgBoldWidth(line, svgHeadingSize)
		if k > 0 {
			w = svgTextWidth(line, 13)
		}
		width = math.Max(width, 16+w+16)
	}
	width = math.Ceil(width)
	height = math.Ceil(height + headH)

	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	svgRoot(&b, width, height)
	for k, line := range lines {
		if k == 0 {
			textElement(&b, svgEscape(line), "x", "16", "y", svgNum(30), "font-size", svgNum(svgHeadingSize), "font-weight", "bold", "fill", svgInk)
			continue
		}
		textElement(&b, svgEscape(line), "x", "16", "y", svgNum(30+float64(k)*svgSubtitleH+2), "font-size", "13", "fill", svgMuted)
	}
	element(&b, "line", "x1", "0", "y1", svgNum(headH-6), "x2", svgNum(width), "y2", svgNum(headH-6), "stroke", svgLaneColor, "stroke-width", "2")
	x := 0.0
	for i, d := range ds {
		if i > 0 {
			element(&b, "line", "x1", svgNum(x+svgColumnGap/2), "y1", svgNum(headH), "x2", svgNum(x+svgColumnGap/2), "y2", svgNum(height), "stroke", svgLaneColor, "stroke-width", "2")
			x += svgColumnGap
		}
		d.drawAt(&b, x, headH)
		x += d.width
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
