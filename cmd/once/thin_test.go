package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxCmdLines bounds the non-test Go lines under cmd/ (issue 17: a thin
// main keeps flag parsing and wiring; what grows belongs in a library
// package with its own tests). 2,500 held from issue 17 to round 4, when
// the commands were already wiring only (every run through runs.Execute,
// every feature in its package) and round 4's flags (the run's memory
// account, brokers, reductions) needed lines of wiring: 2,600.
const maxCmdLines = 2600

// TestMainStaysThin counts cmd/'s non-test lines against maxCmdLines and
// checks that cobra is imported only under cmd/ (moving commands to an
// internal/cli would not make main thinner).
func TestMainStaysThin(t *testing.T) {
	root := filepath.Join("..", "..")
	lines := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "deploy") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		underCmd := strings.HasPrefix(filepath.ToSlash(rel), "cmd/")
		if underCmd {
			lines += bytes.Count(src, []byte("\n"))
		} else if bytes.Contains(src, []byte(`"github.com/spf13/cobra"`)) {
			t.Errorf("%s imports cobra outside cmd/", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if lines > maxCmdLines {
		t.Errorf("cmd/ holds %d non-test lines, over %d: move what is not flag parsing or wiring to a library package", lines, maxCmdLines)
	}
	t.Logf("cmd/: %d non-test lines", lines)
}
