package lessonview

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

// Every step's slides open with a concept slide (its claim, one diagram,
// the takeaway) and show at most MaxDiagramSlides diagram slides; the
// concept diagram's labels, measured as boxes, overlap nowhere and stay
// on the page, and no text is under MinSlideText.
func TestSlidesPerStep(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []lang.Lang{lang.English, lang.Romanian, lang.Russian} {
		lang.Set(l)
		var views []*StepView
		diagrams := map[string][]Diagram{}
		for i := range c.Steps {
			v, err := Build(c, i)
			if err != nil {
				t.Fatal(err)
			}
			views = append(views, v)
			if diagrams[v.ID], err = StepDiagrams(v, Teacher); err != nil {
				t.Fatal(err)
			}
		}
		files, err := Slides(views, diagrams)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range views {
			concept, shown := "", 0
			for _, f := range files {
				name := strings.TrimPrefix(f.Path, "slides/")
				if !strings.HasPrefix(name, PageName(v)+".") {
					continue
				}
				if name == PageName(v)+".0.html" {
					concept = string(f.Data)
				} else {
					shown++
				}
			}
			if concept == "" {
				t.Errorf("%s %s: no concept slide", l, v.ID)
				continue
			}
			if shown == 0 || shown > MaxDiagramSlides {
				t.Errorf("%s %s: %d diagram slides, want 1..%d", l, v.ID, shown, MaxDiagramSlides)
			}
			if !strings.Contains(concept, lang.T("lesson.takeaway")) || !strings.Contains(concept, "<svg") {
				t.Errorf("%s %s: the concept slide lacks its diagram or its takeaway", l, v.ID)
			}
			checkLabels(t, string(l)+" "+v.ID, concept)
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
