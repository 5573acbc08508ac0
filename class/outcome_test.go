package class

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lang/langtest"
)

var shownOutcome = regexp.MustCompile(`(?s)<h[1-6][^>]*>.*?</h[1-6]>|<title>.*?</title>|alt="[^"]*"|<figcaption>.*?</figcaption>|<summary>.*?</summary>|<p class="phase".*?</p>`)

// Before the reveal, in en, ro and ru, a student's page shows no rendered
// outcome (charged once, charged twice, not charged…, ✓ ✗ ★) in its
// headings, captions and summaries, nor in the diagrams of their run — as
// the lesson pack's student edition; after it, the run's outcome lines
// appear.
func TestStudentPagesShowNoOutcomeBeforeTheReveal(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	for _, l := range []lang.Lang{lang.English, lang.Romanian, lang.Russian} {
		lang.Set(l)
		words := append(langtest.OutcomeStrings(t, string(l)), "✓", "✗", "★")
		cl, srv := newTestClass(t, "", Options{})
		tb := teacher(t, cl, srv.URL)
		ada := newBrowser(t, srv.URL)
		ada.join("Ada", "")
		for _, phase := range []string{Predict, Evidence} {
			_, page := ada.get("/")
			shown := strings.Join(shownOutcome.FindAllString(page, -1), "\n")
			if phase == Evidence {
				for k := range sheet(t, cl, "Ada", "double-billing").diagrams {
					_, svg := ada.get("/diagram/" + strconv.Itoa(k))
					shown += svg
				}
			}
			for _, w := range words {
				if strings.Contains(shown, w) {
					t.Errorf("%s, %s: the student's page or diagrams show %q before the reveal", l, phase, w)
				}
			}
			tb.advance(cl)
		}
		_, page := ada.get("/")
		if line := sheet(t, cl, "Ada", "double-billing").view.Runs[0].Lines[0]; !strings.Contains(page, html.EscapeString(line)) {
			t.Errorf("%s: the reveal does not show the outcome line %q", l, line)
		}
	}
}
