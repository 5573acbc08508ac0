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

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// The slides' page: 16:9 at 1920×1080, readable from the back of a room.
const (
	SlideWidth  = 1920
	SlideHeight = 1080
	// MinSlideText is the smallest text a slide shows, in CSS pixels at
	// 1920×1080 (the SVG's own smallest text is scaled up to at least it).
	MinSlideText = 18.0
	// MaxDiagramSlides is how many diagram slides follow a step's concept
	// slide: whole diagrams, in the step's order, while they fit.
	MaxDiagramSlides = 3
)

var (
	svgRoot     = regexp.MustCompile(`(?s)<svg xmlns="http://www.w3.org/2000/svg" width="([0-9.]+)" height="([0-9.]+)" viewBox="[^"]*" font-family="([^"]*)">\n(.*)</svg>\s*$`)
	svgFontSize = regexp.MustCompile(`font-size(="|=\\"|:\s*)([0-9.]+)`)
)

// Slides are a step's slides: a concept slide (the step's claim — its
// title and its part of the course text —, one diagram of its runs'
// operations, and the takeaway: the scenario's fix; see conceptSlide) and then at most
// MaxDiagramSlides diagram slides — whole diagrams in the step's order,
// each a 16:9 HTML page per screenful (a tall panel continues on the
// next page), the SVG inline and scaled to the page's width so that its
// smallest text is at least MinSlideText pixels; slides/index.html lists
// them.
func Slides(views []*StepView, diagrams map[string][]Diagram) ([]PackFile, error) {
	var files []PackFile
	var index strings.Builder
	fmt.Fprintf(&index, "<h1>%s</h1>\n", html.EscapeString(lang.T("lesson.slides")))
	for _, v := range views {
		fmt.Fprintf(&index, "<h2>%s</h2>\n<ol>\n", html.EscapeString(lang.Tf("lesson.step_of", map[string]any{"N": v.Number, "Total": v.Total})+" · "+v.Title))
		ds := diagrams[v.ID]
		name := PageName(v) + ".0.html"
		files = append(files, PackFile{Path: "slides/" + name, Data: conceptSlide(v)})
		fmt.Fprintf(&index, "<li><a href=\"%s\">%s</a></li>\n", name, html.EscapeString(lang.T("lesson.concept")))
		shown := 0
		for j, d := range ds {
			pages, err := slidePages(d)
			if err != nil {
				return nil, fmt.Errorf("lesson slides: %s: %w", d.File, err)
			}
			if shown+len(pages) > MaxDiagramSlides {
				if j > 0 || len(ds) > 1 && fitsSomewhere(ds[1:], MaxDiagramSlides) {
					continue // a diagram is shown whole or not at all; the step's page has every one
				}
				pages = pages[:MaxDiagramSlides] // the step's only diagram that fits nowhere: its start
			}
			shown += len(pages)
			for k, p := range pages {
				name := fmt.Sprintf("%s.%d.html", strings.TrimSuffix(d.File, ".svg"), k+1)
				files = append(files, PackFile{Path: "slides/" + name, Data: p})
				fmt.Fprintf(&index, "<li><a href=\"%s\">%s (%d/%d)</a></li>\n", name, html.EscapeString(d.Caption), k+1, len(pages))
			}
		}
		index.WriteString("</ol>\n")
	}
	files = append(files, PackFile{Path: "slides/index.html", Data: slidePage(lang.T("lesson.slides"), index.String(), false)})
	return files, nil
}

// fitsSomewhere says whether one of ds fits whole in n slides.
func fitsSomewhere(ds []Diagram, n int) bool {
	for _, d := range ds {
		if pages, err := slidePages(d); err == nil && len(pages) <= n {
			return true
		}
	}
	return false
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
	maxSquares := int((width - conceptLabel) / (conceptSquare + 8))
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
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"%s\">+%d</text>\n", num(conceptLabel+float64(maxSquares)*(conceptSquare+8)), num(y+conceptSquare*0.75), num(conceptText), len(r.classes)-maxSquares)
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

// raiseText is an SVG body whose text, drawn at scale, is at least
// MinSlideText pixels: smaller font sizes are set larger in this copy.
func raiseText(body []byte, scale float64) []byte {
	floor := math.Ceil(MinSlideText/scale*10) / 10
	return svgFontSize.ReplaceAllFunc(body, func(f []byte) []byte {
		sub := svgFontSize.FindSubmatch(f)
		v, err := strconv.ParseFloat(string(sub[2]), 64)
		if err != nil || v >= floor {
			return f
		}
		return []byte("font-size" + string(sub[1]) + strconv.FormatFloat(floor, 'f', -1, 64))
	})
}

// slidePages cuts one diagram into 16:9 pages.
func slidePages(d Diagram) ([][]byte, error) {
	m := svgRoot.FindSubmatch(d.SVG)
	if m == nil {
		return nil, fmt.Errorf("not a panel of report/svg")
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	scale := min(SlideWidth/w, 3.0)
	// The page's width sets the scale; text the scale leaves under
	// MinSlideText is set larger in the slide's copy of the SVG.
	body := raiseText(m[4], scale)
	viewW := SlideWidth / scale
	viewH := SlideHeight / scale
	step := viewH * 0.9 // each page repeats the last tenth of the one before
	var out [][]byte
	for y := 0.0; ; y += step {
		svg := fmt.Sprintf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"%s %s %s %s\" font-family=\"%s\">\n%s</svg>\n",
			SlideWidth, SlideHeight, num((w-viewW)/2), num(y), num(viewW), num(viewH), m[3], body)
		out = append(out, slidePage(d.Caption, svg, true))
		if y+viewH >= h {
			break
		}
	}
	return out, nil
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
