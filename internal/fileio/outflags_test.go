package fileio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestCheckGivenFlags: before any work, a text flag given an empty value
// (read as left out: accepted and ignored), an output flag given an empty
// path (which wrote nothing, as if left out) and a file in a directory
// that is not there (found at the end: the lesson's --result after the
// whole quiz) are refused, in one line naming the flag; good paths, --out
// -, a placeholder and a lesson pack's new directory pass.
func TestCheckGivenFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args     []string
		outIsDir bool
		want     string // "" passes
	}{
		{[]string{"--save", ""}, false, `--save "": an empty path`},
		{[]string{"--out="}, false, `--out "": an empty path`},
		{[]string{"--out", ""}, true, `--out "": an empty path`},
		{[]string{"--result", filepath.Join(dir, "no", "r.json")}, false, "--result " + filepath.Join(dir, "no", "r.json") + ": cannot create a file in " + filepath.Join(dir, "no") + ": no such file or directory"},
		{[]string{"--cpuprofile", filepath.Join(file, "p")}, false, "--cpuprofile " + filepath.Join(file, "p") + ": "},
		{[]string{"--out", dir}, false, "is a directory"},
		{[]string{"--save", filepath.Join(dir, "new.plan")}, false, ""},
		{[]string{"--out", "-"}, false, ""},
		{[]string{"--out", filepath.Join(dir, "no", "{shard}.json")}, false, ""},
		{[]string{"--out", filepath.Join(dir, "pack")}, true, ""},
		{[]string{"--steps", ""}, false, `--steps "": an empty value`}, // a text flag: "" would mean left out
		{[]string{"--steps", "1,3"}, false, ""},
		{[]string{"--set", ""}, false, ""}, // not a text flag (a list): checked where it is parsed
		{[]string{"--seed", "0"}, false, ""},
	} {
		fl := pflag.NewFlagSet("t", pflag.ContinueOnError)
		for _, name := range append(OutputFlags, "steps") {
			fl.String(name, "", "")
		}
		fl.StringArray("set", nil, "")
		fl.Uint64("seed", 1, "")
		if err := fl.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		err := CheckGivenFlags(fl, c.outIsDir)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v, want it to pass", c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: %v, want an error with %q", c.args, err, c.want)
		}
	}
}
