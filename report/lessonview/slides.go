package lessonview

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/oncesim/once/internal/svgtext"
	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/svg"
	"github.com/oncesim/once/sim"
)

// The slides' page: 16:9 at 1920×1080, readable from the back of a room.
const (
	SlideWidth  = 1920
	SlideHeight = 1080
	// MinSlideText is the smallest text a slide shows, in CSS pixels at
	// 1920×1080 (the SVG's own smallest text is scaled up to at least it).
	MinSlideText = 18.0
	// DiagramSlideText is the text size a diagram slide's smallest text
	// reaches, in CSS pixels at 1920×1080: one trace on one page, drawn
	// with its own text large enough (at most MaxSlideFont) to reach this
	// size once scaled to the page (fitSlide), its title wrapped to the
	// page's width, and cut down to the operations the row is about
	// (report.FocusEventsFit) where the whole trace would need smaller
	// text or would lay a label on another — the five-lane topologies
	// among them, which drew 10 to 14 px before. MinDiagramSlideText is
	// the floor TestSlidesPerStep holds every diagram slide to.
	DiagramSlideText    = 18.0
	MinDiagramSlideText = 18.0
	// MaxDiagramSlides is how many diagram slides follow a step's concept
	// slide: one per row that carries the lesson (LessonRows).
	MaxDiagramSlides = 3
)

var (
	svgRoot     = regexp.MustCompile(`(?s)<svg xmlns="http://www.w3.org/2000/svg" width="([0-9.]+)" height="([0-9.]+)" viewBox="[^"]*" font-family="([^"]*)">\n(.*)</svg>\s*$`)
	svgFontSize = regexp.MustCompile(`font-size(="|=\\"|:\s*)([0-9.]+)`)
)

// Slides are a step's slides: a concept slide (the step's claim — its
// title and its part of the course text —, one diagram of its runs'
// operations, and the takeaway: the scenario's fix; see conceptSlide) and
// then one diagram slide per row that carries the step's lesson (a run's
// semantics with a claim: at-most-once loses, the broken variant fails,
// the fix holds), in the step's order, at most MaxDiagramSlides: each one
// trace whole on one 16:9 page (slideDiagram), so that every row is shown
// and none twice; slides/index.html lists them.
func Slides(views []*StepView) ([]PackFile, error) {
	var files []PackFile
	var index strings.Builder
	fmt.Fprintf(&index, "<h1>%s</h1>\n", html.EscapeString(lang.T("lesson.slides")))
	for _, v := range views {
		fmt.Fprintf(&index, "<h2>%s</h2>\n<ol>\n", html.EscapeString(lang.Tf("lesson.step_of", map[string]any{"N": v.Number, "Total": v.Total})+" · "+v.Title))
		name := PageName(v) + ".0.html"
		files = append(files, PackFile{Path: "slides/" + name, Data: conceptSlide(v)})
		fmt.Fprintf(&index, "<li><a href=\"%s\">%s</a></li>\n", name, html.EscapeString(lang.T("lesson.concept")))
		for _, row := range LessonRows(v) {
			doc, err := slideDiagram(v, row)
			if err != nil {
				return nil, err
			}
			caption := fmt.Sprintf("%s — %s", Command(row.Result), row.Run.Outcome.Semantics)
			name := fmt.Sprintf("%s.%s.%s.html", PageName(v), row.Result.Spec.ID, row.Run.Outcome.Semantics.Alias())
			files = append(files, PackFile{Path: "slides/" + name, Data: slidePage(caption, doc, true)})
			fmt.Fprintf(&index, "<li><a href=\"%s\">%s</a></li>\n", name, html.EscapeString(caption))
		}
		index.WriteString("</ol>\n")
	}
	files = append(files, PackFile{Path: "slides/index.html", Data: slidePage(lang.T("lesson.slides"), index.String(), false)})
	return files, nil
}

// A LessonRow is one semantics of one run of a step.
type LessonRow struct {
	Result *lesson.Result
	Run    *lesson.SemanticsRun
}

// LessonRows are the rows of a step that carry its lesson — those its
// course gives a claim (lesson.RunSpec.Claims) —, in the step's order, at
// most MaxDiagramSlides of them; every row when none has a claim.
func LessonRows(v *StepView) []LessonRow {
	var claimed, all []LessonRow
	for _, rv := range v.Runs {
		res := v.Results[rv.ID]
		if res == nil {
			continue
		}
		for i := range res.Runs {
			row := LessonRow{Result: res, Run: &res.Runs[i]}
			all = append(all, row)
			if res.Spec.Claims[res.Runs[i].Outcome.Semantics.Alias()] != "" {
				claimed = append(claimed, row)
			}
		}
	}
	if len(claimed) == 0 {
		claimed = all
	}
	return claimed[:min(len(claimed), MaxDiagramSlides)]
}

// MaxSlideFont is the largest smallest-font a slide's diagram is drawn
// with (svg.Panel.MinFont, in the diagram's pixels) so that, scaled to
// the page, its text is at least MinDiagramSlideText: beyond it the diagram's
// rows could not hold their labels, and the trace is cut down instead.
const MaxSlideFont = 18.0

// slideDiagram draws one row's trace for a slide: titled as the teacher's
// diagram is, the whole trace if it fits the page with its text at least
// MinDiagramSlideText pixels, else cut down to the operations the row is about —
// those that did not end once in it, or in the run's other semantics (the
// same schedule: the fix's view of the broken row's operation) — as
// report.FocusEventsFit cuts it; its SVG scaled to the whole page.
func slideDiagram(v *StepView, row LessonRow) (string, error) {
	o := row.Run.Outcome
	// The title in as few lines as the page allows, each no wider than
	// the page (a promise with its violated invariants runs to 2,700
	// pixels on one line), so that its width and height are not the
	// diagram's.
	title := fmt.Sprintf("%s · %s", o.Semantics, OutcomeWords(row.Result.Scenario, o))
	for _, line := range wrapWidth(report.PromiseText(o), slideTitleWidth, MaxSlideFont) {
		title += "\n" + line
	}
	focus := append(violatedOps(o), report.FocusOps(o)...)
	for i := range row.Result.Runs {
		for _, op := range report.FocusOps(row.Result.Runs[i].Outcome) {
			if !slices.Contains(focus, op) {
				focus = append(focus, op)
			}
		}
	}
	panel := svg.Panel{Topology: row.Run.Config.Topology, Title: title}
	fits := func(events []sim.Event) bool { // measured with the line of a note about what is left out
		p := panel
		p.Events, p.Title = events, panel.Title+"\n…"
		_, ok, _ := fitSlide(p)
		return ok
	}
	events, note := report.FocusEventsFit(row.Run.Config.Topology, row.Run.Trace.Events, focus, fits)
	if note != "" {
		panel.Title += "\n" + clip(note, 80)
	}
	panel.Events = events
	doc, _, err := fitSlide(panel)
	if err != nil {
		return "", fmt.Errorf("lesson slides: %s %s: %w", v.ID, row.Result.Spec.ID, err)
	}
	m := svgRoot.FindStringSubmatch(doc)
	if m == nil {
		return "", fmt.Errorf("lesson slides: %s %s: not a panel of report/svg", v.ID, row.Result.Spec.ID)
	}
	return fmt.Sprintf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %s %s\" font-family=\"%s\">\n%s</svg>\n",
		SlideWidth, SlideHeight, m[1], m[2], m[3], m[4]), nil
}

// violatedOps are the operations o's violated invariants name ("op-2
// reused another operation's key"): a row whose every operation ended
// once can be about one of them, and its slide must show it.
func violatedOps(o *sim.Outcome) []sim.OpID {
	var out []sim.OpID
	for _, inv := range o.Invariants {
		if inv.Violation == "" {
			continue
		}
		for _, a := range inv.Detail.Args {
			n, err := strconv.Atoi(strings.TrimPrefix(a.Value, "op-"))
			if a.Name == "Op" && err == nil && !slices.Contains(out, sim.OpID(n)) {
				out = append(out, sim.OpID(n))
			}
		}
	}
	return out
}

// slideTitleWidth is how wide, in the diagram's pixels, a line of a
// diagram slide's title may be: the page's width less the margins.
const slideTitleWidth = SlideWidth - 160

// wrapWidth cuts s at spaces into lines no wider than width pixels at
// size (svgtext.Width); a word wider than that is a line of its own.
func wrapWidth(s string, width, size float64) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && svgtext.Width(line+" "+w, size, false) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// fitSlide draws a panel with the smallest font that, once the diagram is
// scaled to fit the slide, is MinDiagramSlideText pixels and lays out no
// label on another (svgtext.Check): the SVG, and whether that font is at
// most MaxSlideFont.
func fitSlide(panel svg.Panel) (string, bool, error) {
	var doc string
	for range 12 {
		var b bytes.Buffer
		if err := svg.WritePanels(&b, []svg.Panel{panel}); err != nil {
			return "", false, err
		}
		doc = b.String()
		m := svgRoot.FindStringSubmatch(doc)
		if m == nil {
			return "", false, fmt.Errorf("not a panel of report/svg")
		}
		w, _ := strconv.ParseFloat(m[1], 64)
		h, _ := strconv.ParseFloat(m[2], 64)
		need := DiagramSlideText / min(SlideWidth/w, SlideHeight/h)
		smallest := math.Inf(1)
		for _, f := range svgFontSize.FindAllStringSubmatch(doc, -1) {
			if v, err := strconv.ParseFloat(f[2], 64); err == nil {
				smallest = math.Min(smallest, v)
			}
		}
		if need <= smallest {
			problems, err := svgtext.Check([]byte(doc))
			if err == nil && len(problems) == 0 {
				return doc, true, nil
			}
			if panel.MinFont >= MaxSlideFont { // labels on one another at the largest font: cut the trace instead
				return doc, false, nil
			}
			panel.MinFont = math.Min(MaxSlideFont, math.Max(panel.MinFont, smallest)+0.5) // another layout may part them
			continue
		}
		if panel.MinFont == MaxSlideFont {
			return doc, false, nil // the largest it may be: as good as it gets
		}
		panel.MinFont = math.Min(MaxSlideFont, math.Ceil(need*1.06*4)/4)
	}
	return doc, false, nil
}

// conceptSlide is a step's first slide: the claim (its title and part of
// the course text), one diagram — every operation of every run the step
// shows, one square each, coloured by what came of it (conceptDiagram) —
// and the takeaway (the fix of the step's first scenario). Its text is
// at least MinSlideText pixels, nothing overlaps: the diagram is drawn
// for the page, not scaled down from a trace.
func conceptSlide(v *StepView) []byte {
	takeaway := ""
	if len(v.Runs) > 0 {
		if r := v.Results[v.Runs[0].ID]; r != nil {
			takeaway = strings.Join(strings.Fields(lang.Lesson(r.Scenario.Name, "fix", r.Scenario.Lesson.Fix)), " ")
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<div style=\"padding: 40px 80px 0; font-family: sans-serif\"><h1 style=\"font-size: 48px; margin: 0\">%s</h1>\n<p style=\"font-size: 28px; margin: 8px 0 24px\">%s</p>\n",
		html.EscapeString(v.Title), html.EscapeString(PaceLine(v)))
	b.WriteString(conceptDiagram(v))
	fmt.Fprintf(&b, "<p style=\"font-size: 30px; margin: 24px 0\"><b>%s</b> %s</p></div>\n",
		html.EscapeString(lang.T("lesson.takeaway")), html.EscapeString(takeaway))
	return slidePage(v.Title, b.String(), true)
}

// The concept diagram's geometry, in pixels of the 1920×1080 page.
const (
	conceptRow    = 56.0  // one row per run and semantics
	conceptSquare = 40.0  // one square per operation
	conceptLabel  = 760.0 // the rows' labels' column
	conceptText   = 24.0  // font size, above MinSlideText
)

// conceptDiagram draws every run of the step as a row of squares, one
// per operation: green once, red twice or more, grey lost — the broken
// variant and its fix side by side, readable from the back of the room.
func conceptDiagram(v *StepView) string {
	type row struct {
		label    string
		classes  []string
		violated bool
	}
	var rows []row
	for _, rv := range v.Runs {
		r := v.Results[rv.ID]
		if r == nil {
			continue
		}
		for _, sr := range r.Runs {
			o := sr.Outcome
			var cs []string
			for i := range o.Ops {
				c := lesson.OpClass(o, i)
				if o.Ops[i].Outcome == sim.OpRefused {
					c = "refused" // refused as designed: no effect, and none was due
				}
				cs = append(cs, c)
			}
			label := fmt.Sprintf("%s · %s", r.Scenario.Name, o.Semantics.Alias())
			if set := setWords(r.Spec.Set); set != "" {
				label += " · " + set
			}
			rows = append(rows, row{label: label, classes: cs, violated: lesson.RowViolated(o)})
		}
	}
	colour := map[string]string{lesson.ClassOnce: "#2e7d32", lesson.ClassMany: "#c62828", lesson.ClassNone: "#9e9e9e", "refused": "#1565c0"}
	mark := map[string]string{lesson.ClassOnce: "1", lesson.ClassMany: "2+", lesson.ClassNone: "0", "refused": "0"}
	width := 1760.0
	height := conceptRow*float64(len(rows)+1) + 8
	var b strings.Builder
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" font-family=\"sans-serif\">\n", num(width), num(height), num(width), num(height))
	// Room at the end of a row for its "✗ violated" and a "+N" beyond
	// the squares drawn.
	violatedW := math.Max(svgtext.Width("✗ "+lang.T("lesson.concept_violated"), conceptText, false), 0.6*conceptText*float64(len([]rune("✗ "+lang.T("lesson.concept_violated")))))
	reserve := 8 + violatedW + 16 + 0.6*conceptText*4 + 8
	maxSquares := int((width - conceptLabel - reserve) / (conceptSquare + 8))
	for i, r := range rows {
		y := float64(i)*conceptRow + 4
		fmt.Fprintf(&b, "<text x=\"0\" y=\"%s\" font-size=\"%s\">%s</text>\n", num(y+conceptSquare*0.75), num(conceptText), html.EscapeString(clip(r.label, 52)))
		for j, c := range r.classes[:min(len(r.classes), maxSquares)] {
			x := conceptLabel + float64(j)*(conceptSquare+8)
			fmt.Fprintf(&b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"6\" fill=\"%s\"/>\n", num(x), num(y), num(conceptSquare), num(conceptSquare), colour[c])
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"%s\" fill=\"#fff\" text-anchor=\"middle\">%s</text>\n", num(x+conceptSquare/2), num(y+conceptSquare*0.7), num(conceptText), mark[c])
		}
		end := conceptLabel + float64(min(len(r.classes), maxSquares))*(conceptSquare+8)
		if r.violated { // an invariant broken although every square may be green
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"%s\" fill=\"#c62828\">✗ %s</text>\n", num(end+8), num(y+conceptSquare*0.75), num(conceptText), html.EscapeString(lang.T("lesson.concept_violated")))
		}
		if len(r.classes) > maxSquares {
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"%s\">+%d</text>\n", num(end+8+violatedW+16), num(y+conceptSquare*0.75), num(conceptText), len(r.classes)-maxSquares)
		}
	}
	y := float64(len(rows))*conceptRow + 4
	x := 0.0
	legend := map[string]string{lesson.ClassOnce: lang.T("lesson.concept_once"), lesson.ClassMany: lang.T("lesson.concept_many"),
		lesson.ClassNone: lang.T("lesson.concept_none"), "refused": lang.T("lesson.concept_refused")}
	for _, c := range []string{lesson.ClassOnce, lesson.ClassMany, lesson.ClassNone, "refused"} {
		fmt.Fprintf(&b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"6\" fill=\"%s\"/>\n", num(x), num(y), num(conceptSquare), num(conceptSquare), colour[c])
		word := legend[c]
		fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"%s\">%s</text>\n", num(x+conceptSquare+12), num(y+conceptSquare*0.75), num(conceptText), html.EscapeString(word))
		x += conceptSquare + 12 + 16*float64(len([]rune(word))) + 48
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// setWords are a run's parameters as the command gives them: "lock=none".
func setWords(set map[string]string) string {
	var out []string
	for k, v := range set {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// clip cuts s to n characters, with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// slidePage is one 16:9 page: nothing loaded from the network.
func slidePage(title, body string, slide bool) []byte {
	var b bytes.Buffer
	style := "body { font-family: sans-serif; font-size: 24px; margin: 2rem; }"
	if slide {
		style = "html, body { margin: 0; background: #fff; } body { width: 1920px; height: 1080px; overflow: hidden; } svg { display: block; }"
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n%s</body>\n</html>\n",
		lang.Current(), html.EscapeString(title), style, body)
	return b.Bytes()
}
