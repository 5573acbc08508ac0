package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// once validate refuses a vacuous claim in one line naming the file, the
// line and the column, exit 2, and nothing on stdout (issue 29 item 9);
// the catalog's own files validate.
func TestValidateRefusesVacuousClaims(t *testing.T) {
	base, err := os.ReadFile("../../scenarios/catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct{ from, to, want string }{
		{`show: ["=1"], unprotected: {key: per-attempt}, explore: 3`, `show: ["=1"], explore: 3`, ":50:30: expect.show: =1 is claimed of every run, but the row names neither"},
		{`unprotected: {key: per-attempt}`, `unprotected: {key: per-operation}`, ":50:56: expect.unprotected: {key=per-operation} changes nothing"},
		{"\nexpect:", "\ninvariants: [one-receipt]\n\nexpect:", ""},
	} {
		path := filepath.Join(dir, "v.yaml")
		if err := os.WriteFile(path, []byte(strings.Replace(string(base), c.from, c.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runOnce("validate", path)
		if c.want == "" { // one-receipt where the client is an HTTP client: fine
			if code != exitOK {
				t.Errorf("%s: exit %d, %s", c.to, code, stderr)
			}
			continue
		}
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, path+c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %s%s", c.to, code, stdout, stderr, path, c.want)
		}
	}
	code, _, stderr := runOnce(append([]string{"validate"}, catalogFiles(t)...)...)
	if code != exitOK {
		t.Errorf("the catalog does not validate: exit %d, %s", code, stderr)
	}
}

func catalogFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../scenarios/catalog/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no catalog files: %v", err)
	}
	return files
}
