package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestCLIOnly runs the CLI scripts named in $ONCE_CLI (comma-separated
// base names: ONCE_CLI=matrix,sweep) exactly as TestCLI does, so that one
// script can be refreshed without rewriting the others:
//
//	ONCE_CLI=matrix go test ./cmd/once/ -run TestCLIOnly -rewrite
//
// Without $ONCE_CLI it is skipped (TestCLI covers every script).
func TestCLIOnly(t *testing.T) {
	only := os.Getenv("ONCE_CLI")
	if only == "" {
		t.Skip("set ONCE_CLI=name[,name…] to run single CLI scripts")
	}
	t.Setenv("NO_COLOR", "1")
	dir := t.TempDir()
	for _, name := range strings.Split(only, ",") {
		file := filepath.Join("../../testdata/cli", strings.TrimSuffix(strings.TrimSpace(name), ".txt")+".txt")
		datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "write":
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
		})
	}
}
