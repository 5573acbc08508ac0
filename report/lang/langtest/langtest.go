// Package langtest holds what the tests of the views rendered for a
// student share about the locales: the outcome words that must not show
// before the reveal (the class server's pages, the lesson pack's student
// edition).
package langtest

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// OutcomeStrings are the rendered outcome words of language l, read from
// every [outcome] section of report/lang/locales/*.l.toml (the words the
// run views print: charged once, charged twice, not charged, refused as
// designed, never completes…), the generic "none" and "or more" apart
// (they are not an outcome on their own).
func OutcomeStrings(t testing.TB, l string) []string {
	t.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("langtest: cannot find the locale files")
	}
	files, err := filepath.Glob(filepath.Join(filepath.Dir(self), "..", "locales", "*."+l+".toml"))
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
		t.Fatalf("%s: only %d outcome strings found in %v", l, len(out), files)
	}
	return out
}
