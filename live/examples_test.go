package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plantedBugs are the copies of examples/live/python/careful_service.py
// with one line changed, each a bug of issue 32 that --suite payments
// catches (TestIntegrationSuiteCatchesPlantedBugs runs them).
var plantedBugs = []string{
	"lease_shorter_than_timeout.py",
	"recovery_point_before_charge.py",
	"fingerprint_without_amount.py",
	"no_recovery_after_restart.py",
}

// Each planted bug is the careful service with one line changed or one
// line added, that line marked "# planted bug:", and is documented in
// bugs/README.md; no other file hides in bugs/.
func TestPlantedBugsAreOneLine(t *testing.T) {
	dir := "../examples/live/python"
	careful := readLines(t, filepath.Join(dir, "careful_service.py"))
	readme, err := os.ReadFile(filepath.Join(dir, "bugs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "bugs", "*.py"))
	if len(files) != len(plantedBugs) {
		t.Errorf("bugs/ holds %d services, want the %d planted bugs %v", len(files), len(plantedBugs), plantedBugs)
	}
	for _, name := range plantedBugs {
		bug := readLines(t, filepath.Join(dir, "bugs", name))
		changed := oneLineDiff(careful, bug)
		if changed == "" {
			t.Errorf("%s: not one line away from careful_service.py", name)
		} else if !strings.Contains(changed, "# planted bug:") {
			t.Errorf("%s: the changed line %q does not say it is the planted bug", name, changed)
		}
		if !strings.Contains(string(readme), name) {
			t.Errorf("bugs/README.md does not document %s", name)
		}
	}
}

// oneLineDiff is the line of b that is not in a when b is a with one line
// replaced or one line inserted, else "".
func oneLineDiff(a, b []string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case len(b) == len(a) && i < len(a) && strings.Join(a[i+1:], "\n") == strings.Join(b[i+1:], "\n"):
		return b[i]
	case len(b) == len(a)+1 && strings.Join(a[i:], "\n") == strings.Join(b[i+1:], "\n"):
		return b[i]
	}
	return ""
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

// oneLineDiff finds a replaced and an inserted line, and nothing else.
func TestOneLineDiff(t *testing.T) {
	a := []string{"x", "y", "z"}
	for _, c := range []struct {
		b    []string
		want string
	}{
		{[]string{"x", "Y", "z"}, "Y"},
		{[]string{"x", "n", "y", "z"}, "n"},
		{[]string{"x", "y", "z", "n"}, "n"},
		{[]string{"X", "Y", "z"}, ""},
		{[]string{"x", "y", "z"}, ""},
		{[]string{"x", "z"}, ""},
	} {
		if got := oneLineDiff(a, c.b); got != c.want {
			t.Errorf("oneLineDiff(%v, %v) = %q, want %q", a, c.b, got, c.want)
		}
	}
}
