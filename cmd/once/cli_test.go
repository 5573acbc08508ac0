package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/oncesim/once/internal/golden"
)

// TestCLI runs the scripts under testdata/cli: each `once` block is a
// command line, and its expected output is the exit code, stdout and
// stderr; a `write file=NAME` block writes its input to $TMP/NAME first.
// Refresh with: go test ./cmd/once/ -run 'TestCLI$' -rewrite
// (ONCE_CLI=matrix,sweep limits the run to those scripts).
func TestCLI(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	files, err := filepath.Glob("../../testdata/cli/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no CLI scripts found: %v", err)
	}
	if only := os.Getenv("ONCE_CLI"); only != "" {
		names := strings.Split(only, ",")
		files = slices.DeleteFunc(files, func(f string) bool {
			return !slices.Contains(names, strings.TrimSuffix(filepath.Base(f), ".txt"))
		})
	}
	dir := t.TempDir()
	for _, file := range files {
		golden.Narrow(t, filepath.Base(file), "rewrite", "cli", "", func(t *testing.T) {
			datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
				return cliDirective(t, d, dir)
			})
		})
	}
}

func cliDirective(t *testing.T, d *datadriven.TestData, dir string) string {
	switch d.Cmd {
	case "write": // write file=NAME: the block's input becomes $TMP/NAME
		var name string
		d.ScanArgs(t, "file", &name)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(d.Input+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return ""
	case "once":
	default:
		t.Fatalf("%s: unknown directive %q", d.Pos, d.Cmd)
	}
	args := strings.Fields(strings.ReplaceAll(d.Input, "$TMP", dir))
	var stdout, stderr bytes.Buffer
	code := execute(args, &stdout, &stderr)
	var b strings.Builder
	fmt.Fprintf(&b, "exit %d\n", code)
	b.WriteString(strings.ReplaceAll(stdout.String(), dir, "$TMP"))
	if stderr.Len() > 0 {
		b.WriteString("stderr:\n")
		b.WriteString(strings.ReplaceAll(stderr.String(), dir, "$TMP"))
	}
	return b.String()
}
