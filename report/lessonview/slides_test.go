package lessonview

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/internal/svgtext"
	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

// Every step's slides open with a concept slide (its claim, one diagram,
// the takeaway) and then show one diagram slide per row that carries the
// lesson (LessonRows: the rows with a claim, at most MaxDiagramSlides),
// each one trace whole on its page — double-billing and three-semantics
// show at-most-once, at-least-once and the idempotent fix —; the concept
// diagram's labels, measured as boxes, overlap nowhere and stay on the
// page; so do every diagram slide's (svgtext.Check), and no text on a
// diagram slide is drawn under MinDiagramSlideText pixels once scaled to
// the page; the pack's diagrams (StepDiagrams, both editions) are
// measured as well (in English). Both tracks — every catalog
// scenario's slides — in English, Romanian and Russian.
func TestSlidesPerStep(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	all := c.AllTracks()
	for _, l := range []lang.Lang{lang.English, lang.Romanian, lang.Russian} {
		lang.Set(l)
		steps := all // both tracks: every catalog scenario's slides, in every language
		var views []*StepView
		for i := range steps.Steps {
			v, err := Build(steps, i)
			if err != nil {
				t.Fatal(err)
			}
			views = append(views, v)
			if l != lang.English {
				continue
			}
			// The pack's own diagrams, both editions: no label on another,
			// none clipped.
			for _, edition := range []string{Student, Teacher} {
				ds, err := StepDiagrams(v, edition)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range ds {
					problems, err := svgtext.Check(d.SVG)
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range problems {
						t.Errorf("%s diagrams/%s: %s", l, d.File, p)
					}
				}
			}
		}
		files, err := Slides(views)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range views {
			concept := ""
			var shown []string
			for _, f := range files {
				name := strings.TrimPrefix(f.Path, "slides/")
				if !strings.HasPrefix(name, PageName(v)+".") {
					continue
				}
				if name == PageName(v)+".0.html" {
					concept = string(f.Data)
					continue
				}
				shown = append(shown, strings.TrimSuffix(strings.TrimPrefix(name, PageName(v)+"."), ".html"))
				checkSlide(t, string(l)+" "+name, f.Data)
			}
			if concept == "" {
				t.Errorf("%s %s: no concept slide", l, v.ID)
				continue
			}
			var want []string
			for _, row := range LessonRows(v) {
				want = append(want, row.Result.Spec.ID+"."+row.Run.Outcome.Semantics.Alias())
			}
			if len(shown) == 0 || len(shown) > MaxDiagramSlides || strings.Join(shown, " ") != strings.Join(want, " ") {
				t.Errorf("%s %s: diagram slides %v, want one per row of the lesson %v (1..%d)", l, v.ID, shown, want, MaxDiagramSlides)
			}
			if v.ID == "double-billing" || v.ID == "three-semantics" {
				for _, sem := range []string{"amo", "alo", "idem"} {
					if !slices.ContainsFunc(shown, func(s string) bool { return strings.HasSuffix(s, "."+sem) }) {
						t.Errorf("%s %s: no slide of the %s row (%v)", l, v.ID, sem, shown)
					}
				}
			}
			if !strings.Contains(concept, lang.T("lesson.takeaway")) || !strings.Contains(concept, "<svg") {
				t.Errorf("%s %s: the concept slide lacks its diagram or its takeaway", l, v.ID)
			}
			checkLabels(t, string(l)+" "+v.ID, concept)
		}
	}
}

// checkSlide measures a diagram slide's SVG: no two labels overlap, none
// runs out of the page's viewBox, and every text, scaled to the page, is
// at least MinDiagramSlideText pixels.
func checkSlide(t *testing.T, name string, page []byte) {
	t.Helper()
	i, j := bytes.Index(page, []byte("<svg")), bytes.LastIndex(page, []byte("</svg>"))
	if i < 0 || j < i {
		t.Errorf("%s: no SVG", name)
		return
	}
	doc := page[i : j+len("</svg>")]
	problems, err := svgtext.Check(doc)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", name, p)
	}
	labels, frames, _ := svgtext.Labels(doc)
	if len(frames) != 1 || len(labels) == 0 {
		t.Errorf("%s: %d SVG frames, %d labels; want one page of labels", name, len(frames), len(labels))
		return
	}
	scale := min(SlideWidth/frames[0][2], SlideHeight/frames[0][3])
	for _, l := range labels {
		if px := l.Size * scale; px < MinDiagramSlideText-0.01 {
			t.Errorf("%s: %q drawn at %.1f px, want at least %v", name, l.Text, px, MinDiagramSlideText)
			break
		}
	}
}

var svgText = regexp.MustCompile(`<text x="([0-9.]+)" y="([0-9.]+)" font-size="([0-9.]+)"[^>]*?(?: text-anchor="(middle)")?>([^<]*)</text>`)

// checkLabels measures every text of an SVG as a box (0.6 em a
// character, one em tall, anchored as drawn) and fails on two boxes that
// overlap, a box outside the SVG's width, or text under MinSlideText.
func checkLabels(t *testing.T, name, page string) {
	t.Helper()
	width := 1760.0
	type box struct{ x0, y0, x1, y1 float64 }
	var boxes []box
	var labels []string
	for _, m := range svgText.FindAllStringSubmatch(page, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		size, _ := strconv.ParseFloat(m[3], 64)
		if size < MinSlideText {
			t.Errorf("%s: text %q at %v px, want at least %v", name, m[5], size, MinSlideText)
		}
		w := 0.6 * size * float64(len([]rune(m[5])))
		if m[4] == "middle" {
			x -= w / 2
		}
		b := box{x, y - 0.8*size, x + w, y + 0.2*size}
		if b.x0 < 0 || b.x1 > width {
			t.Errorf("%s: label %q runs off the diagram (%.0f..%.0f of %.0f)", name, m[5], b.x0, b.x1, width)
		}
		for i, o := range boxes {
			if b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1 {
				t.Errorf("%s: labels %q and %q overlap", name, labels[i], m[5])
			}
		}
		boxes, labels = append(boxes, b), append(labels, m[5])
	}
	if len(boxes) == 0 {
		t.Errorf("%s: no label measured", name)
	}
}
