package class

import (
	"bufio"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/report/lang"
)

// outcomeStrings are the rendered outcome words of language l, read from
// every [outcome] section of report/lang/locales/*.l.toml, as the lesson
// pack's student-edition test reads them ("none" and "or more" apart).
func outcomeStrings(t *testing.T, l string) []string {
	t.Helper()
	files, err := filepath.Glob("../report/lang/locales/*." + l + ".toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no locale files for %s: %v", l, err)
	}
	entry := regexp.MustCompile(`^"([^"]+)"\s*=\s*"([^"]+)"`)
	var out []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		in := false
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(line, "[") {
				in = line == "[outcome]"
				continue
			}
			if m := entry.FindStringSubmatch(line); in && m != nil && m[1] != "none" && m[1] != "or more" {
				out = append(out, m[2])
			}
		}
		fh.Close()
	}
	if len(out) < 20 {
		t.Fatalf("%s: only %d outcome strings", l, len(out))
	}
	return out
}

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
		words := append(outcomeStrings(t, string(l)), "✓", "✗", "★")
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
