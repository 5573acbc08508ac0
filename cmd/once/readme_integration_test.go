//go:build integration

package main

import (
	"slices"
	"strings"
	"testing"
)

// TestIntegrationReadmeCommandsRun runs every README and docs command that works
// offline in seconds (not the TUI, the interactive lesson, the class server, live, lab,
// Slurm or Kubernetes, nor a million seeds or a merge of shards the README
// makes in a shell loop) and requires exit 0, or 1 for --check.
func TestIntegrationReadmeCommandsRun(t *testing.T) {
	cmds := docCommands(t)
	t.Chdir(t.TempDir())
	ran := 0
	for _, c := range cmds {
		if len(c.args) == 0 || slices.Contains([]string{"tui", "lesson", "live", "live-serve", "lab", "merge", "class"}, c.args[0]) ||
			strings.Contains(c.text, "1000000") || slices.Contains(c.args, "--shard") {
			continue
		}
		code, _, stderr := runOnce(c.args...)
		want := exitOK
		if slices.Contains(c.args, "--check") {
			want = code // --check may find what it teaches
		}
		if code != want || (code != exitOK && code != exitViolation) {
			t.Errorf("%s:%d: %s: exit %d: %s", c.file, c.line, c.text, code, stderr)
		}
		ran++
	}
	if ran < 10 {
		t.Errorf("ran %d README commands, want at least 10", ran)
	}
}
