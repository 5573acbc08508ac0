package svg

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
)

// WriteSweep renders a sweep as an SVG line chart for slides: the swept
// value along x (durations with their units, probabilities as numbers),
// the share of runs that duplicated or lost an operation along y from 0
// to 100%, each as a line with markers over a light band of its 95% Wilson
// interval — plus a line for a broken invariant when any point broke one.
// When a budget cut runs short, a grey dashed line with hollow markers
// plots the share of unfinished runs ("unfinished: no verdict"); a point
// where no run finished has no verdict on loss or duplication, so the
// rate lines break there instead of showing it as 0%.
// A title names the scenario, the semantics and the seeds per point, with
// the settings held fixed under it; a legend sits above the chart. When the
// scenario declares metrics, a small panel per metric below plots its mean
// per run on its own scale. Every marker carries a <title> tooltip with the
// exact figures. The output is a pure function of d, byte for byte.
func WriteSweep(w io.Writer, d report.SweepDoc) error {
	p := newSweepPlot(&d)
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	svgRoot(&b, p.width, p.height)
	p.draw(&b)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Geometry (pixels) and colours of the chart.
const (
	swMinWidth    = 900.0
	swLeft        = 84.0  // plot area's left edge: room for tick labels and the y title
	swRight       = 32.0  // from the plot area to the right edge
	swTitleY      = 32.0  // baseline of the heading
	swRateH       = 300.0 // height of the rates plot area
	swMetricH     = 120.0 // height of a metric's plot area
	swMetricGap   = 72.0  // from one plot's bottom to the next plot's top
	swTickLabelDY = 17.0  // x tick labels under the plot's bottom
	swAxisTitleDY = 38.0  // x axis title under the plot's bottom
	swBottomPad   = 20.0

	swGrid       = "#e5e7eb"
	swGridMajor  = "#d1d5db"
	swAxis       = "#6b7280"
	swLost       = "#1d4ed8"
	swDup        = "#dc2626"
	swViolation  = "#7e22ce"
	swUnfinished = "#6b7280"
)

// swMetricColors tell metrics apart: none of them a rate's colour.
var swMetricColors = [...]string{"#0f766e", "#b45309", "#be185d", "#4d7c0f", "#0369a1", "#6d28d9"}

// swTextLine is one line of the heading.
type swTextLine struct {
	text  string
	size  float64
	color string
	bold  bool
	y     float64 // baseline
}

// swSeries is one rate plotted against the swept value.
type swSeries struct {
	name, what string // legend label; what a run counted in it did
	color      string
	marker     string // circle, square, diamond, ring (hollow circle)
	rate       func(*report.SweepPoint) float64
	ci         func(*report.SweepPoint) [2]float64
	count      func(*report.SweepPoint) int
	same       string  // the series drawn before it with the very same rates, if any
	peak       float64 // its highest rate
	// verdict marks the series that need a verdict: lost, duplicated and
	// invariant broken have none at a point where no run finished.
	verdict bool
	tipName string // its name in a marker's tooltip, if not name
	dashes  string // its own stroke-dasharray, if any
}

// swPanel is one plot area: the rates or one metric.
type swPanel struct {
	top, h float64
	metric string    // "" for the rates panel
	lo, hi float64   // its y range
	ticks  []float64 // y tick values
	dec    int       // decimals of the y tick labels
}

type sweepPlot struct {
	d             *report.SweepDoc
	width, height float64
	heading       []swTextLine
	legendY       float64
	series        []swSeries // in legend order
	order         []int      // the series' drawing order, back to front
	panels        []swPanel
	xlo, xhi      float64
	xticks        []float64 // values labelled on the x axis
	marker        float64
}

func newSweepPlot(d *report.SweepDoc) *sweepPlot {
	p := &sweepPlot{d: d, width: swMinWidth}
	v := d.Vary
	head := d.Scenario + " · " + d.Semantics
	sub := lang.Nf("sweepsvg.sub", d.Seeds, map[string]any{"Name": v.Name, "From": lang.Value(v.From), "To": lang.Value(v.To), "Step": lang.Value(v.Step)})
	p.width = math.Max(p.width, math.Ceil(16+svgTextWidth(head, 18)+16))
	p.width = math.Max(p.width, math.Ceil(16+svgTextWidth(sub, 13)+16))
	y := swTitleY
	p.heading = append(p.heading, swTextLine{head, 18, svgInk, true, y})
	y += 22
	p.heading = append(p.heading, swTextLine{sub, 13, svgInk, false, y})
	for _, line := range swWrap(sweepFixed(d), " · ", p.width-32, 11.5) {
		y += 17
		p.heading = append(p.heading, swTextLine{line, 11.5, svgMuted, false, y})
	}
	p.legendY = y + 34

	p.series = []swSeries{
		{name: lang.T("sweepsvg.dup"), what: lang.T("sweepsvg.dup_what"), color: swDup, marker: "circle",
			rate: func(s *report.SweepPoint) float64 { return s.DuplicatedRate }, ci: func(s *report.SweepPoint) [2]float64 { return s.DuplicatedCI95 },
			count: func(s *report.SweepPoint) int { return s.RunsWithDuplicated }, verdict: true},
		{name: lang.T("sweepsvg.lost"), what: lang.T("sweepsvg.lost_what"), color: swLost, marker: "square",
			rate: func(s *report.SweepPoint) float64 { return s.LostRate }, ci: func(s *report.SweepPoint) [2]float64 { return s.LostCI95 },
			count: func(s *report.SweepPoint) int { return s.RunsWithLost }, verdict: true},
	}
	for i := range d.Points {
		if d.Points[i].RunsWithViolation > 0 || d.Points[i].ViolationRate > 0 {
			p.series = append(p.series, swSeries{name: lang.T("sweepsvg.broken"), what: lang.T("sweepsvg.broken_what"), color: swViolation, marker: "diamond",
				rate: func(s *report.SweepPoint) float64 { return s.ViolationRate }, ci: func(s *report.SweepPoint) [2]float64 { return s.ViolationCI95 },
				count: func(s *report.SweepPoint) int { return s.RunsWithViolation }, verdict: true})
			break
		}
	}
	for i := range d.Points {
		if d.Points[i].RunsUnfinished > 0 {
			p.series = append(p.series, swSeries{name: lang.T("sweepsvg.unfinished"), tipName: lang.T("sweepsvg.unfinished_tip"), what: lang.T("sweepsvg.unfinished_what"),
				color: swUnfinished, marker: "ring", dashes: "3 4",
				rate: func(s *report.SweepPoint) float64 { return s.UnfinishedRate }, ci: func(s *report.SweepPoint) [2]float64 { return s.UnfinishedCI95 },
				count: func(s *report.SweepPoint) int { return s.RunsUnfinished }})
			break
		}
	}

	p.orderSeries()

	top := p.legendY + 26
	rates := swPanel{top: top, h: swRateH, lo: 0, hi: 1, dec: 0}
	for k := 0; k <= 10; k++ {
		rates.ticks = append(rates.ticks, float64(k)/10)
	}
	p.panels = append(p.panels, rates)
	top += swRateH + swMetricGap
	for _, m := range d.Metrics {
		mp := swPanel{top: top, h: swMetricH, metric: m}
		mp.lo, mp.hi, mp.ticks, mp.dec = swNiceScale(p.metricRange(m))
		p.panels = append(p.panels, mp)
		top += swMetricH + swMetricGap
	}
	last := p.panels[len(p.panels)-1]
	p.height = math.Ceil(last.top + last.h + swAxisTitleDY + swBottomPad)

	// The x range: the points' values, or a unit around a lone one.
	p.xlo, p.xhi = 0, 1
	if n := len(d.Points); n > 0 {
		p.xlo, p.xhi = d.Points[0].X, d.Points[0].X
		for i := range d.Points {
			p.xlo, p.xhi = math.Min(p.xlo, d.Points[i].X), math.Max(p.xhi, d.Points[i].X)
		}
	}
	p.marker = 4.5
	switch n := len(d.Points); {
	case n > 80:
		p.marker = 0
	case n > 30:
		p.marker = 3
	}
	p.layoutXTicks()
	return p
}

// orderSeries draws the series with the lowest peak first, so that a
// rate at zero throughout lies under the one that rises. A series that
// repeats one drawn before it, point for point, is drawn dashed with
// smaller markers so that the one under it still shows.
func (p *sweepPlot) orderSeries() {
	for k := range p.series {
		s := &p.series[k]
		for i := range p.d.Points {
			if p.shows(s, &p.d.Points[i]) {
				s.peak = math.Max(s.peak, s.rate(&p.d.Points[i]))
			}
		}
	}
	for k := range p.series {
		at := len(p.order)
		for at > 0 && p.series[p.order[at-1]].peak > p.series[k].peak {
			at--
		}
		p.order = append(p.order[:at], append([]int{k}, p.order[at:]...)...)
	}
	for at, k := range p.order {
		s := &p.series[k]
		for _, j := range p.order[:at] {
			if p.sameRates(s, &p.series[j]) {
				s.same = p.series[j].name
				break
			}
		}
	}
}

func (p *sweepPlot) sameRates(a, b *swSeries) bool {
	for i := range p.d.Points {
		sp := &p.d.Points[i]
		if p.shows(a, sp) != p.shows(b, sp) || p.shows(a, sp) && a.rate(sp) != b.rate(sp) {
			return false
		}
	}
	return p.showsAny(a)
}

// noVerdict reports whether no run of a point finished: a budget cut
// every one, so whether any of them lost or duplicated is unknown.
func noVerdict(sp *report.SweepPoint) bool { return sp.Runs > 0 && sp.Finished == 0 }

// shows reports whether series s has a rate at point sp: a series that
// needs a verdict has none where no run finished, and is not drawn there.
func (p *sweepPlot) shows(s *swSeries, sp *report.SweepPoint) bool {
	return !s.verdict || !noVerdict(sp)
}

// showsAny reports whether series s has a rate at some point.
func (p *sweepPlot) showsAny(s *swSeries) bool {
	for i := range p.d.Points {
		if p.shows(s, &p.d.Points[i]) {
			return true
		}
	}
	return false
}

// segments splits the points into runs of consecutive ones where series
// s has a rate (every point, for a series without gaps), by index.
func (p *sweepPlot) segments(s *swSeries) [][]int {
	var segs [][]int
	var cur []int
	for i := range p.d.Points {
		if s == nil || p.shows(s, &p.d.Points[i]) {
			cur = append(cur, i)
			continue
		}
		if len(cur) > 0 {
			segs, cur = append(segs, cur), nil
		}
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	return segs
}

// sweepFixed lists what the sweep held fixed: the operations, the fault
// probabilities and the scenario parameters other than the swept one.
func sweepFixed(d *report.SweepDoc) []string {
	f := d.Faults
	fixed := []string{lang.N("count.operations", d.Ops)}
	fixed = append(fixed, report.FaultParts(f, d.Vary.Name, false)...)
	for _, k := range slices.Sorted(maps.Keys(d.Params)) {
		if k != d.Vary.Name {
			fixed = append(fixed, k+"="+d.Params[k])
		}
	}
	return fixed
}

// swWrap joins items with sep into lines no wider than width at size.
func swWrap(items []string, sep string, width, size float64) []string {
	var lines []string
	cur := ""
	for _, it := range items {
		next := it
		if cur != "" {
			next = cur + sep + it
		}
		if cur != "" && svgTextWidth(next, size) > width {
			lines = append(lines, cur)
			next = it
		}
		cur = next
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

func (p *sweepPlot) metricRange(m string) (lo, hi float64) {
	lo, hi = 0, 0
	for i := range p.d.Points {
		v := p.d.Points[i].Metrics[m]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// swNiceScale extends [lo,hi] to round ticks, about four of them: steps of
// 1, 2, 2.5 or 5 times a power of ten.
func swNiceScale(lo, hi float64) (float64, float64, []float64, int) {
	if !(hi > lo) {
		hi = lo + 1
	}
	raw := (hi - lo) / 4
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw*(1-1e-9) {
			step = m * mag
			break
		}
	}
	first, last := math.Floor(lo/step+1e-9), math.Ceil(hi/step-1e-9)
	var ticks []float64
	for k := first; k <= last; k++ {
		ticks = append(ticks, k*step)
	}
	dec := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	if s := strconv.FormatFloat(step, 'f', dec, 64); s != strconv.FormatFloat(step, 'f', -1, 64) {
		dec++ // 2.5, 0.25
	}
	return first * step, last * step, ticks, dec
}

func (p *sweepPlot) plotL() float64 { return swLeft }
func (p *sweepPlot) plotR() float64 { return p.width - swRight }

// px places a swept value on the x axis; a lone point sits in the middle.
func (p *sweepPlot) px(x float64) float64 {
	l, r := p.plotL()+12, p.plotR()-12
	if p.xhi == p.xlo {
		return (l + r) / 2
	}
	return l + (x-p.xlo)/(p.xhi-p.xlo)*(r-l)
}

func (pn *swPanel) py(v float64) float64 {
	return pn.top + pn.h - (v-pn.lo)/(pn.hi-pn.lo)*pn.h
}

// xLabel formats a swept value as the axis shows it.
func (p *sweepPlot) xLabel(x float64) string {
	switch p.d.Vary.Kind {
	case "duration":
		return swDuration(int64(math.Round(x)))
	case "int":
		return strconv.FormatInt(int64(math.Round(x)), 10)
	}
	return strconv.FormatFloat(math.Round(x*1e9)/1e9, 'f', -1, 64)
}

// swDuration writes milliseconds with their units: 0, 250ms, 1.5s, 45s,
// 1m, 1m30s, 2h.
func swDuration(ms int64) string {
	switch {
	case ms == 0:
		return "0"
	case ms < 0:
		return "-" + swDuration(-ms)
	case ms < 1000:
		return strconv.FormatInt(ms, 10) + "ms"
	case ms < 60_000 || ms%1000 != 0:
		return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + "s"
	}
	s := ms / 1000
	var b strings.Builder
	for _, u := range []struct {
		n    int64
		unit string
	}{{s / 3600, "h"}, {s % 3600 / 60, "m"}, {s % 60, "s"}} {
		if u.n != 0 {
			b.WriteString(strconv.FormatInt(u.n, 10) + u.unit)
		}
	}
	return b.String()
}

// layoutXTicks labels every point when the labels fit side by side;
// otherwise round values a fitting distance apart: steps of 1, 2 or 5
// times a power of ten, and for durations past a second also 15s, 30s,
// 1m, 2m, 5m, 10m, 15m, 30m, 1h…
func (p *sweepPlot) layoutXTicks() {
	n := len(p.d.Points)
	if n == 0 {
		return
	}
	width := p.px(p.xhi) - p.px(p.xlo)
	fits := func(ticks []float64) bool {
		if len(ticks) < 2 {
			return true
		}
		widest := 0.0
		for _, x := range ticks {
			widest = math.Max(widest, svgTextWidth(p.xLabel(x), 11))
		}
		gap := width
		for i := 1; i < len(ticks); i++ {
			gap = math.Min(gap, math.Abs(ticks[i]-ticks[i-1])/(p.xhi-p.xlo)*width)
		}
		return gap >= widest+14
	}
	var every []float64
	for i := range p.d.Points {
		every = append(every, p.d.Points[i].X)
	}
	if fits(every) {
		p.xticks = every
		return
	}
	span := p.xhi - p.xlo
	if !(span > 0) || math.IsInf(span, 0) {
		p.xticks = every[:1]
		return
	}
	for _, step := range p.xSteps(span) {
		var ticks []float64
		for k := math.Ceil(p.xlo/step - 1e-9); k*step <= p.xhi+step*1e-9; k++ {
			ticks = append(ticks, k*step)
		}
		if step >= span || fits(ticks) {
			p.xticks = ticks
			return
		}
	}
}

// xSteps lists candidate tick steps from fine to coarse, ending at one
// of at least span.
func (p *sweepPlot) xSteps(span float64) []float64 {
	var steps []float64
	mag := math.Pow(10, math.Floor(math.Log10(span/100)))
	if p.d.Vary.Kind == "int" || p.d.Vary.Kind == "duration" {
		mag = math.Max(mag, 1)
	}
	for m := mag; ; m *= 10 {
		for _, f := range []float64{1, 2, 5} {
			step := f * m
			if p.d.Vary.Kind == "duration" && step > 10_000 {
				// Past ten seconds: clock-friendly steps.
				for _, s := range []float64{15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000} {
					if steps = append(steps, s); s >= span {
						return steps
					}
				}
				for h := 2 * 3_600_000.0; ; h *= 2 {
					if steps = append(steps, h); h >= span {
						return steps
					}
				}
			}
			if steps = append(steps, step); step >= span {
				return steps
			}
		}
	}
}

func (p *sweepPlot) draw(b *strings.Builder) {
	for _, l := range p.heading {
		weight := ""
		if l.bold {
			weight = " font-weight=\"bold\""
		}
		textElement(b, svgEscape(l.text), "x", "16", "y", svgNum(l.y), "font-size", svgNum(l.size), "", weight, "fill", l.color)
	}
	p.drawLegend(b)
	for i := range p.panels {
		p.drawPanel(b, &p.panels[i], i == len(p.panels)-1)
	}
}

func (p *sweepPlot) drawLegend(b *strings.Builder) {
	x, y := p.plotL(), p.legendY
	for _, s := range p.series {
		element(b, "line", "x1", svgNum(x), "y1", svgNum(y-4), "x2", svgNum(x+30), "y2", svgNum(y-4), "stroke", s.color, "stroke-width", "2.5", "", strings.Replace(s.dash(), "8 6", "7 16", 1))
		b.WriteString(swMarker(s.marker, x+15, y-4, 5, s.color))
		name := s.name
		switch {
		case s.peak == 0 && p.showsAny(&s):
			name += lang.T("sweepsvg.none")
		case s.same != "":
			name += lang.Tf("sweepsvg.same", map[string]any{"Series": s.same})
		}
		textElement(b, svgEscape(name), "x", svgNum(x+38), "y", svgNum(y), "font-size", "13", "fill", svgInk)
		x += 38 + svgTextWidth(name, 13) + 26
	}
	element(b, "rect", "x", svgNum(x), "y", svgNum(y-11), "width", "30", "height", "14", "fill", svgMuted, "fill-opacity", "0.35")
	textElement(b, lang.T("sweepsvg.wilson"), "x", svgNum(x+38), "y", svgNum(y), "font-size", "13", "fill", svgInk)
}

// drawPanel draws one plot area: its grid, axes, tick labels and lines.
func (p *sweepPlot) drawPanel(b *strings.Builder, pn *swPanel, last bool) {
	l, r := p.plotL(), p.plotR()
	bottom := pn.top + pn.h
	pts := p.d.Points
	if pn.metric != "" {
		textElement(b, svgEscape(lang.Tf("sweepsvg.mean_per_run", map[string]any{"Metric": p.metricTitle(pn.metric)})), "x", svgNum(l), "y", svgNum(pn.top-12), "font-size", "13", "font-weight", "bold", "fill", svgInk)
	}
	// Horizontal grid and y tick labels.
	b.WriteString("<g font-size=\"11\" fill=\"" + svgMuted + "\" text-anchor=\"end\">\n")
	for k, v := range pn.ticks {
		y := pn.py(v)
		color, label := swGrid, true
		if pn.metric == "" {
			label = k%2 == 0
			if label {
				color = swGridMajor
			}
		}
		if y < bottom-0.05 {
			element(b, "line", "x1", svgNum(l), "y1", svgNum(y), "x2", svgNum(r), "y2", svgNum(y), "stroke", color, "stroke-width", "1")
		}
		if label {
			textElement(b, p.yLabel(pn, v), "x", svgNum(l-8), "y", svgNum(y+4))
		}
	}
	b.WriteString("</g>\n")
	// Vertical grid at the labelled points, and their labels.
	b.WriteString("<g font-size=\"11\" fill=\"" + svgMuted + "\" text-anchor=\"middle\">\n")
	for _, v := range p.xticks {
		x := p.px(v)
		element(b, "line", "x1", svgNum(x), "y1", svgNum(pn.top), "x2", svgNum(x), "y2", svgNum(bottom+4), "stroke", swGrid, "stroke-width", "1")
		textElement(b, svgEscape(p.xLabel(v)), "x", svgNum(x), "y", svgNum(bottom+swTickLabelDY))
	}
	b.WriteString("</g>\n")
	p.drawMarks(b, pn)
	// Axes.
	fmt.Fprintf(b, "<path d=\"M%s %sV%sH%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\"/>\n",
		svgNum(l), svgNum(pn.top), svgNum(bottom), svgNum(r), swAxis)
	// Axis titles.
	ytitle := lang.T("sweepsvg.share")
	if pn.metric != "" {
		ytitle = lang.T("sweepsvg.mean")
	}
	my := pn.top + pn.h/2
	fmt.Fprintf(b, "<text x=\"24\" y=\"%s\" font-size=\"12\" fill=\"%s\" text-anchor=\"middle\" transform=\"rotate(-90 24 %s)\">%s</text>\n",
		svgNum(my), svgMuted, svgNum(my), svgEscape(ytitle))
	if last {
		xtitle := p.d.Vary.Name
		switch p.d.Vary.Kind {
		case "probability":
			xtitle += lang.T("sweepsvg.fault_probability")
		case "duration", "int":
			xtitle += lang.T("sweepsvg.scenario_parameter")
		}
		textElement(b, svgEscape(xtitle), "x", svgNum((l+r)/2), "y", svgNum(bottom+swAxisTitleDY), "font-size", "13", "font-weight", "bold", "fill", svgInk, "text-anchor", "middle")
	}
	if len(pts) == 0 {
		textElement(b, "no points", "x", svgNum((l+r)/2), "y", svgNum(my), "font-size", "13", "fill", svgMuted, "text-anchor", "middle")
		return
	}
	if pn.metric == "" {
		p.drawRates(b, pn)
		return
	}
	p.drawMetric(b, pn)
}

func (p *sweepPlot) yLabel(pn *swPanel, v float64) string {
	if pn.metric == "" {
		return strconv.FormatFloat(v*100, 'f', 0, 64) + "%"
	}
	s := strconv.FormatFloat(v, 'f', pn.dec, 64)
	if s == "-0" {
		s = "0"
	}
	return s
}

// drawRates draws every series' band, then every line, then the markers,
// so that no band covers a line.
func (p *sweepPlot) drawRates(b *strings.Builder, pn *swPanel) {
	pts := p.d.Points
	for _, k := range p.order {
		s := &p.series[k]
		for _, seg := range p.segments(s) {
			p.drawBand(b, pn, s, seg)
		}
	}
	for _, k := range p.order {
		s := &p.series[k]
		p.drawLine(b, s, func(sp *report.SweepPoint) float64 { return pn.py(swClamp(s.rate(sp))) }, s.color, s.dash())
	}
	for _, k := range p.order {
		s := &p.series[k]
		if p.marker == 0 {
			continue
		}
		r := p.marker
		if s.same != "" {
			r *= 0.5
		}
		b.WriteString("<g>\n")
		for i := range pts {
			sp := &pts[i]
			if !p.shows(s, sp) {
				continue
			}
			ci := s.ci(sp)
			name := s.name
			if s.tipName != "" {
				name = s.tipName
			}
			tip := lang.Nf("sweepsvg.tip", sp.Runs, map[string]any{"Point": p.d.Vary.Name + " " + p.xLabel(sp.X), "Series": name,
				"Rate": lang.Decimal(pctNum(s.rate(sp))), "Lo": lang.Decimal(pctNum(ci[0])), "Hi": lang.Decimal(pctNum(ci[1])), "N": s.count(sp), "What": s.what})
			m := swMarker(s.marker, p.px(sp.X), pn.py(swClamp(s.rate(sp))), r, s.color)
			b.WriteString(strings.TrimSuffix(m, "/>\n") + "><title>" + svgEscape(tip) + "</title></" + swMarkerElement(s.marker) + ">\n")
		}
		b.WriteString("</g>\n")
	}
}

// drawBand draws series s's 95% interval over one segment of points as a
// light band; a segment of one point gets a narrow bar.
func (p *sweepPlot) drawBand(b *strings.Builder, pn *swPanel, s *swSeries, seg []int) {
	pts := p.d.Points
	w := 0.0
	if len(seg) == 1 {
		w = 10 // a lone point: a narrow bar of its interval
	}
	var path strings.Builder
	for n, i := range seg {
		cmd := "L"
		if n == 0 {
			cmd = "M"
		}
		x := p.px(pts[i].X)
		fmt.Fprintf(&path, "%s%s %s", cmd, svgNum(x-w), svgNum(pn.py(swClamp(s.ci(&pts[i])[1]))))
		if w > 0 {
			fmt.Fprintf(&path, "L%s %s", svgNum(x+w), svgNum(pn.py(swClamp(s.ci(&pts[i])[1]))))
		}
	}
	for n := len(seg) - 1; n >= 0; n-- {
		i := seg[n]
		x := p.px(pts[i].X)
		if w > 0 {
			fmt.Fprintf(&path, "L%s %s", svgNum(x+w), svgNum(pn.py(swClamp(s.ci(&pts[i])[0]))))
		}
		fmt.Fprintf(&path, "L%s %s", svgNum(x-w), svgNum(pn.py(swClamp(s.ci(&pts[i])[0]))))
	}
	path.WriteString("Z")
	fmt.Fprintf(b, "<path d=\"%s\" fill=\"%s\" fill-opacity=\"0.13\" stroke=\"none\"/>\n", path.String(), s.color)
}

func (p *sweepPlot) drawMetric(b *strings.Builder, pn *swPanel) {
	pts := p.d.Points
	color := swMetricColors[0]
	for i, m := range p.d.Metrics {
		if m == pn.metric {
			color = swMetricColors[i%len(swMetricColors)]
			break
		}
	}
	val := func(sp *report.SweepPoint) float64 {
		v := sp.Metrics[pn.metric]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			v = 0
		}
		return v
	}
	p.drawLine(b, nil, func(sp *report.SweepPoint) float64 { return pn.py(val(sp)) }, color, "")
	if p.marker == 0 {
		return
	}
	b.WriteString("<g>\n")
	for i := range pts {
		sp := &pts[i]
		tip := lang.Tf("sweepsvg.metric_tip", map[string]any{"Point": p.d.Vary.Name + " " + p.xLabel(sp.X), "Metric": pn.metric, "Value": strconv.FormatFloat(val(sp), 'f', 2, 64)})
		m := swMarker("circle", p.px(sp.X), pn.py(val(sp)), p.marker-0.5, color)
		b.WriteString(strings.TrimSuffix(m, "/>\n") + "><title>" + svgEscape(tip) + "</title></circle>\n")
	}
	b.WriteString("</g>\n")
}

// drawLine joins the points' y (in pixels) by polylines: one per segment
// of consecutive points where series s has a rate (all of them for a nil
// s), so that the line breaks where it has none.
func (p *sweepPlot) drawLine(b *strings.Builder, series *swSeries, y func(*report.SweepPoint) float64, color, dash string) {
	pts := p.d.Points
	for _, seg := range p.segments(series) {
		if len(seg) < 2 {
			continue
		}
		var s strings.Builder
		for n, i := range seg {
			if n > 0 {
				s.WriteByte(' ')
			}
			s.WriteString(svgNum(p.px(pts[i].X)) + "," + svgNum(y(&pts[i])))
		}
		fmt.Fprintf(b, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" stroke-linejoin=\"round\"%s/>\n",
			s.String(), color, dash)
	}
}

// dash is the stroke-dasharray attribute of a series drawn over its twin,
// or of a series dashed of its own.
func (s *swSeries) dash() string {
	switch {
	case s.same != "":
		return " stroke-dasharray=\"8 6\""
	case s.dashes != "":
		return " stroke-dasharray=\"" + s.dashes + "\""
	}
	return ""
}

// swMarker is one marker centred on (x,y), of radius r, as a self-closing
// element ending in "/>\n".
func swMarker(kind string, x, y, r float64, color string) string {
	const outline = "stroke=\"#ffffff\" stroke-width=\"1.2\""
	switch kind {
	case "ring":
		return fmt.Sprintf("<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"#ffffff\" stroke=\"%s\" stroke-width=\"2\"/>\n", svgNum(x), svgNum(y), svgNum(r), color)
	case "square":
		s := r * 0.9
		return fmt.Sprintf("<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\" %s/>\n",
			svgNum(x-s), svgNum(y-s), svgNum(2*s), svgNum(2*s), color, outline)
	case "diamond":
		s := r * 1.3
		return fmt.Sprintf("<path d=\"M%s %sL%s %sL%s %sL%s %sZ\" fill=\"%s\" %s/>\n",
			svgNum(x), svgNum(y-s), svgNum(x+s), svgNum(y), svgNum(x), svgNum(y+s), svgNum(x-s), svgNum(y), color, outline)
	}
	return fmt.Sprintf("<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"%s\" %s/>\n", svgNum(x), svgNum(y), svgNum(r), color, outline)
}

func swMarkerElement(kind string) string {
	switch kind {
	case "square":
		return "rect"
	case "diamond":
		return "path"
	}
	return "circle"
}

// swClamp keeps a rate inside [0,1], and NaN at 0.
func swClamp(f float64) float64 {
	if !(f >= 0) {
		return 0
	}
	return math.Min(f, 1)
}

// drawMarks draws the scenario's marks on the swept axis (a replay
// horizon) and the knee of its rate as dashed vertical lines, labelled at
// the top of the panel.
func (p *sweepPlot) drawMarks(b *strings.Builder, pn *swPanel) {
	type mark struct {
		x    float64
		text string
	}
	var marks []mark
	for _, m := range p.d.Marks {
		marks = append(marks, mark{m.X, m.Text() + " " + m.Value})
	}
	if r := p.d.Rate; r != nil && r.Knee != "" {
		marks = append(marks, mark{r.KneeX, lang.Tf("sweepsvg.knee", map[string]any{"R": r.Name, "U": r.VersusName})})
	}
	if len(p.d.Points) == 0 {
		return
	}
	lo, hi := p.d.Points[0].X, p.d.Points[len(p.d.Points)-1].X
	for _, m := range marks {
		if m.x < lo || m.x > hi {
			continue
		}
		x := p.px(m.x)
		element(b, "line", "x1", svgNum(x), "y1", svgNum(pn.top), "x2", svgNum(x), "y2", svgNum(pn.top+pn.h), "stroke", svgDarkRed, "stroke-width", "1.5", "stroke-dasharray", "5 4")
		textElement(b, svgEscape(m.text), "x", svgNum(x+4), "y", svgNum(pn.top+12), "font-size", "11", "font-weight", "bold", "fill", svgDarkRed, "", svgHalo)
	}
}

// metricTitle names a metric with its unit: "oldest-duplicate-age (s)".
func (p *sweepPlot) metricTitle(m string) string {
	for i, name := range p.d.Metrics {
		if name == m && i < len(p.d.MetricUnits) && p.d.MetricUnits[i] != "" {
			return m + " (" + p.d.MetricUnits[i] + ")"
		}
	}
	return m
}
