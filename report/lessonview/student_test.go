package lessonview

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lang/langtest"
)

var (
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} .*$`)
	mdCaption = regexp.MustCompile(`!\[([^\]]*)\]\(([^)]*)\)`)
	htmlHead  = regexp.MustCompile(`(?s)<h[1-6][^>]*>.*?</h[1-6]>|<title>.*?</title>|alt="[^"]*"`)
)

// TestStudentEditionAnswersNothing: the student edition of the pack, in
// en, ro and ru, shows no rendered outcome — no outcome word of the
// language's locales, no ✓ ✗ ★ — in its headings, captions (alt texts)
// and SVG diagrams; the teacher's edition keeps them (so the scan can
// find what it looks for).
func TestStudentEditionAnswersNothing(t *testing.T) {
	defer lang.Set(lang.Current())
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.ForStudent("ada")
	if err != nil {
		t.Fatal(err)
	}
	var views []*StepView
	for i := range s.Steps {
		v, err := Build(s, i)
		if err != nil {
			t.Fatal(err)
		}
		views = append(views, v)
	}
	matrix := func(scenario string) (string, error) { return "", nil }
	for _, l := range []string{"en", "ro", "ru"} {
		lang.Set(lang.Lang(l))
		files, err := Pack(views, matrix, false, true)
		if err != nil {
			t.Fatal(err)
		}
		byPath := map[string][]byte{}
		for _, f := range files {
			byPath[f.Path] = f.Data
		}
		words := append(langtest.OutcomeStrings(t, l), "✓", "✗", "★")
		teacherShows := 0
		for _, edition := range []string{Student, Teacher} {
			for _, f := range files {
				if !strings.HasPrefix(f.Path, edition+"/") {
					continue
				}
				text := string(f.Data)
				var scanned []string
				switch {
				case strings.HasSuffix(f.Path, ".md"):
					scanned = mdHeading.FindAllString(text, -1)
					for _, m := range mdCaption.FindAllStringSubmatch(text, -1) {
						scanned = append(scanned, m[1])
						svgPath := filepath.ToSlash(filepath.Join(edition, m[2]))
						svg, ok := byPath[svgPath]
						if !ok {
							t.Fatalf("%s: %s: %s is not in the pack", l, f.Path, svgPath)
						}
						scanned = append(scanned, string(svg))
					}
				case strings.HasSuffix(f.Path, ".html"):
					scanned = htmlHead.FindAllString(text, -1)
				}
				for _, s := range scanned {
					for _, w := range words {
						if !strings.Contains(s, w) {
							continue
						}
						if edition == Teacher {
							teacherShows++
							continue
						}
						t.Errorf("%s: %s shows %s in %s", l, f.Path, strconv.Quote(w), strconv.Quote(firstLine(s, w)))
					}
				}
			}
		}
		if teacherShows == 0 {
			t.Errorf("%s: the teacher's edition shows no outcome either: the scan finds nothing", l)
		}
	}
}

// firstLine is the line of s around w, for the error message.
func firstLine(s, w string) string {
	i := strings.Index(s, w)
	start := strings.LastIndex(s[:i], "\n") + 1
	end := strings.Index(s[i:], "\n")
	if end < 0 {
		end = len(s) - i
	}
	line := s[start : i+end]
	if len(line) > 160 {
		line = line[:160]
	}
	return line
}
