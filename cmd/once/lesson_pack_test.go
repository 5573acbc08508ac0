package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	course "github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

// writeTestPack writes the whole pack in l into a new directory, both
// editions (with the class key).
func writeTestPack(t *testing.T, l lang.Lang) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pack")
	code, _, stderr := executeWithInput([]string{"lesson", "--out", dir, "--class-key", testClassKey, "--lang", string(l)}, "")
	if code != exitOK {
		t.Fatalf("lesson --out: exit %d: %s", code, stderr)
	}
	return dir
}

var (
	mdLinkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	htmlLinkRE = regexp.MustCompile(`(?:href|src)="([^"]+)"`)
	// remoteRE finds anything a page could fetch from the network.
	remoteRE = regexp.MustCompile(`(?i)(?:src|href)\s*=\s*"(?:https?:)?//|<script|@import|url\(\s*["']?(?:https?:)?//`)
)

// Every relative link of every page (Markdown and HTML) of both editions
// names a file the pack wrote; each edition's index lists every step's
// page in the course's order; no HTML page loads anything (no script, no
// remote URL); the teacher's pages answer every question and time the
// class, the student's pages hold no answer.
func TestLessonPackLinks(t *testing.T) {
	c, err := course.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []lang.Lang{lang.English, lang.Romanian} {
		dir := writeTestPack(t, l)
		links := 0
		for _, edition := range []string{"student", "teacher"} {
			pages, _ := filepath.Glob(filepath.Join(dir, edition, "*.md"))
			htmls, _ := filepath.Glob(filepath.Join(dir, edition, "*.html"))
			if len(pages) != len(c.Steps)+1 || len(htmls) != len(pages) {
				t.Fatalf("%s %s: %d Markdown and %d HTML pages, want %d each", l, edition, len(pages), len(htmls), len(c.Steps)+1)
			}
			for _, p := range append(pages, htmls...) {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				re := mdLinkRE
				if strings.HasSuffix(p, ".html") {
					re = htmlLinkRE
					if m := remoteRE.Find(data); m != nil {
						t.Errorf("%s %s/%s loads something: %q", l, edition, filepath.Base(p), m)
					}
				}
				for _, m := range re.FindAllStringSubmatch(string(data), -1) {
					target := m[1]
					if strings.HasPrefix(target, "#") {
						continue
					}
					links++
					if _, err := os.Stat(filepath.Join(filepath.Dir(p), filepath.FromSlash(target))); err != nil {
						t.Errorf("%s: %s/%s: link %s does not resolve", l, edition, filepath.Base(p), target)
					}
				}
			}
			index, _ := os.ReadFile(filepath.Join(dir, edition, "index.md"))
			last := -1
			steps := slices.DeleteFunc(pages, func(p string) bool { return filepath.Base(p) == "index.md" })
			for i, s := range c.Steps {
				page := filepath.Base(steps[i])
				at := strings.Index(string(index), "("+page+")")
				if !strings.HasSuffix(page, "-"+s.ID+".md") || at < last {
					t.Errorf("%s %s: index: step %d (%s) missing or out of order", l, edition, i+1, s.ID)
				}
				last = at
				data, _ := os.ReadFile(steps[i])
				text := string(data)
				if strings.Contains(text, "```mermaid") {
					t.Errorf("%s: %s/%s has a Mermaid block (drawn by a script, not offline)", l, edition, page)
				}
				want := 0
				for j := range s.Runs {
					res, err := course.Execute(&s.Runs[j])
					if err != nil {
						t.Fatal(err)
					}
					want += len(res.Runs)
				}
				if n := strings.Count(text, "](../diagrams/"); n != want {
					t.Errorf("%s: %s/%s shows %d diagrams, want %d: one per semantics of its runs", l, edition, page, n, want)
				}
				teacher := "## " + l.T("lesson.teacher")
				answers := strings.Count(text, "**"+l.T("lesson.answer")+":")
				switch edition {
				case "teacher":
					if !strings.Contains(text, teacher) || answers != len(s.Questions) {
						t.Errorf("%s: %s: the teacher's section does not answer its %d questions", l, page, len(s.Questions))
					}
				case "student":
					if strings.Contains(text, teacher) || answers != 0 {
						t.Errorf("%s: student/%s holds answers", l, page)
					}
				}
			}
			if edition == "teacher" && !strings.Contains(string(index), l.Tf("lesson.timing", map[string]any{"N": 90})) {
				t.Errorf("%s: the teacher's index does not time the 90-minute class", l)
			}
		}
		if links < 8*len(c.Steps) {
			t.Errorf("%s: only %d relative links: is the pattern stale?", l, links)
		}
	}
}

// A directory that holds anything is refused (exit 2, one line) and left
// as it was; --force replaces it, and no temporary directory is left.
func TestLessonPackRefusesNonEmpty(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := executeWithInput([]string{"lesson", "--out", dir, "--steps", "1"}, "")
	if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--force") {
		t.Fatalf("non-empty --out: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Fatal("the refused directory was changed")
	}
	code, _, stderr = executeWithInput([]string{"lesson", "--out", dir, "--steps", "1", "--force"}, "")
	if code != exitOK {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(mine); err == nil {
		t.Error("--force kept the old contents")
	}
	if _, err := os.Stat(filepath.Join(dir, "student", "01-double-billing.md")); err != nil {
		t.Error(err)
	}
	entries, _ := os.ReadDir(parent)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"pack"}) {
		t.Errorf("left beside the pack: %v", names)
	}
	// An empty directory is fine without --force.
	empty := filepath.Join(parent, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := executeWithInput([]string{"lesson", "--out", empty, "--steps", "10"}, ""); code != exitOK {
		t.Errorf("empty --out: exit %d: %s", code, stderr)
	}
}
