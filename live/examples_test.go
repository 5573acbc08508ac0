package live

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plantedBugs are the bugs examples/live/python/bugs/plant.py plants in
// examples/live/python/careful_service.py, each one line changed or added,
// each a bug of issue 32 that --suite payments catches
// (TestIntegrationSuiteCatchesPlantedBugs runs them).
var plantedBugs = []string{
	"lease_shorter_than_timeout",
	"recovery_point_before_charge",
	"fingerprint_without_amount",
	"no_recovery_after_restart",
}

// pythonExamples is the folder of the Python examples, from live/.
const pythonExamples = "../examples/live/python"

// Each planted bug is documented in bugs/README.md with its diff against
// careful_service.py: one line marked "# planted bug:" changed or added,
// its lines found in careful_service.py once and in plant.py as written
// (TestIntegrationPlantedBugsAreOneLine checks that plant.py --print gives
// that diff); bugs/ holds no Python file but plant.py.
func TestPlantedBugsAreDocumented(t *testing.T) {
	plant, err := os.ReadFile(filepath.Join(pythonExamples, "bugs", "plant.py"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(pythonExamples, "bugs", "*.py"))
	if len(files) != 1 {
		t.Errorf("bugs/ holds %v, want plant.py alone", files)
	}
	careful := readLines(t, filepath.Join(pythonExamples, "careful_service.py"))
	for _, name := range plantedBugs {
		bug, diff, err := plantedFromReadme(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		changed := oneLineDiff(careful, bug)
		if changed == "" {
			t.Errorf("%s: the README's diff is not one line away from careful_service.py", name)
		} else if !strings.Contains(changed, "# planted bug:") {
			t.Errorf("%s: the changed line %q does not say it is the planted bug", name, changed)
		}
		if !strings.Contains(string(plant), `"`+name+`": (`) {
			t.Errorf("plant.py does not plant %s", name)
		}
		for _, line := range diff {
			if !strings.Contains(string(plant), line[1:]) {
				t.Errorf("%s: plant.py does not hold the README's line %q", name, line[1:])
			}
		}
	}
}

// plantedFromReadme is careful_service.py with the diff bugs/README.md
// shows for bug applied (the lines of the planted source), and that
// diff's lines; an error if the README has no such diff or its lines
// are not in careful_service.py exactly once.
func plantedFromReadme(bug string) (planted, diff []string, err error) {
	readme, err := os.ReadFile(filepath.Join(pythonExamples, "bugs", "README.md"))
	if err != nil {
		return nil, nil, err
	}
	_, after, ok := strings.Cut(string(readme), "`"+bug+"`:\n\n```diff\n")
	block, _, closed := strings.Cut(after, "```")
	if !ok || !closed {
		return nil, nil, fmt.Errorf("bugs/README.md shows no diff for %s", bug)
	}
	b, err := os.ReadFile(filepath.Join(pythonExamples, "careful_service.py"))
	if err != nil {
		return nil, nil, err
	}
	var old, replaced []string
	for _, line := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		diff = append(diff, line)
		switch {
		case strings.HasPrefix(line, " "):
			old, replaced = append(old, line[1:]), append(replaced, line[1:])
		case strings.HasPrefix(line, "-"):
			old = append(old, line[1:])
		case strings.HasPrefix(line, "+"):
			replaced = append(replaced, line[1:])
		default:
			return nil, nil, fmt.Errorf("%s: %q is not a line of a diff", bug, line)
		}
	}
	from, to := strings.Join(old, "\n")+"\n", strings.Join(replaced, "\n")+"\n"
	if n := strings.Count(string(b), "\n"+from); n != 1 {
		return nil, nil, fmt.Errorf("%s: the diff's lines %q stand in careful_service.py %d times, want once", bug, from, n)
	}
	return strings.Split(strings.Replace(string(b), "\n"+from, "\n"+to, 1), "\n"), diff, nil
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
