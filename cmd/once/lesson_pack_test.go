package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/report/lang"
	course "github.com/oncesim/once/scenarios/lesson"
)

// writeTestPack writes the whole pack in l into a new directory.
func writeTestPack(t *testing.T, l lang.Lang) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pack")
	code, _, stderr := executeWithInput([]string{"lesson", "--out", dir, "--lang", string(l)}, "")
	if code != exitOK {
		t.Fatalf("lesson --out: exit %d: %s", code, stderr)
	}
	return dir
}

var (
	mdLinkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	htmlLinkRE = regexp.MustCompile(`(?:href|src)="([^"]+)"`)
	mermaidRE  = regexp.MustCompile("(?s)```mermaid\n(.*?)```")
)

// Every relative link of every page (Markdown and HTML) names a file the
// pack wrote; the index lists every step's page in the course's order;
// every page has its questions, its Mermaid blocks and the teacher's
// answers.
func TestLessonPackLinks(t *testing.T) {
	c, err := course.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []lang.Lang{lang.English, lang.Romanian} {
		dir := writeTestPack(t, l)
		pages, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		htmls, _ := filepath.Glob(filepath.Join(dir, "*.html"))
		if len(pages) != len(c.Steps)+1 || len(htmls) != len(pages) {
			t.Fatalf("%s: %d Markdown and %d HTML pages, want %d each", l, len(pages), len(htmls), len(c.Steps)+1)
		}
		links := 0
		for _, p := range append(pages, htmls...) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			re := mdLinkRE
			if strings.HasSuffix(p, ".html") {
				re = htmlLinkRE
			}
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "#") {
					continue
				}
				links++
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
					t.Errorf("%s: %s: link %s does not resolve", l, filepath.Base(p), target)
				}
			}
		}
		if links < 4*len(c.Steps) {
			t.Errorf("%s: only %d relative links: is the pattern stale?", l, links)
		}
		index, _ := os.ReadFile(filepath.Join(dir, "index.md"))
		last := -1
		for i, s := range c.Steps {
			page := filepath.Base(pages[i])
			at := strings.Index(string(index), "("+page+")")
			if !strings.HasSuffix(page, "-"+s.ID+".md") || at < last {
				t.Errorf("%s: index: step %d (%s) missing or out of order", l, i+1, s.ID)
			}
			last = at
			data, _ := os.ReadFile(pages[i])
			text := string(data)
			if n := len(mermaidRE.FindAllString(text, -1)); n == 0 {
				t.Errorf("%s: %s has no Mermaid block", l, page)
			}
			teacher := "## " + l.T("lesson.teacher")
			if !strings.Contains(text, teacher) || strings.Count(text[strings.Index(text, teacher):], "**"+l.T("lesson.answer")+":") != len(s.Questions) {
				t.Errorf("%s: %s: the teacher's section does not answer its %d questions", l, page, len(s.Questions))
			}
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
	if _, err := os.Stat(filepath.Join(dir, "01-double-billing.md")); err != nil {
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
