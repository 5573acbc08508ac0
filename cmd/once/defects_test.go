package main

import (
	"bytes"
	"strings"
	"testing"
)

// oneLine checks that a refusal is exit 2 with one line on stderr
// containing want, and nothing on stdout.
func oneLine(t *testing.T, want string, args ...string) {
	t.Helper()
	code, stdout, stderr := runOnce(args...)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("once %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", strings.Join(args, " "), code, stdout, stderr, want)
	}
}

// TestSmallDefectsRefused: the smaller defects of issue 17, each a clear
// one-line refusal now.
func TestSmallDefectsRefused(t *testing.T) {
	oneLine(t, "an empty fault kind", "explore", "double-billing", "--faults", "loss,")
	oneLine(t, "--max-depth 0: want at least 1", "explore", "double-billing", "--max-depth", "0")
	oneLine(t, "--max-states 0: want at least 1", "explore", "double-billing", "--max-states", "0")
	oneLine(t, "--tick NaN: want real milliseconds", "live", "double-billing", "--tick", "NaN")
	oneLine(t, "tui needs a terminal", "tui", "double-billing")
	oneLine(t, "tui needs a terminal", "tui")
}

// TestLessonPlainLongLine: an answer line longer than the scanner's
// buffer is a clear error, not "bufio.Scanner: token too long".
func TestLessonPlainLongLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	root := newRootCmd(&stdout, &stderr)
	root.SetIn(strings.NewReader(strings.Repeat("b", 1<<20) + "\n"))
	root.SetArgs([]string{"lesson", "--plain"})
	err := root.Execute()
	if err == nil || !strings.Contains(err.Error(), "an answer line is longer than 64 KiB") || strings.Contains(err.Error(), "token too long") {
		t.Errorf("lesson --plain with a 1 MiB line: %v", err)
	}
}

// TestReplayLineShowsRepeatedSet: a parameter set twice takes the last
// value, and every printed command that reproduces the run spells the
// value used, never the first one (issue 35 item 5).
func TestReplayLineShowsRepeatedSet(t *testing.T) {
	for _, args := range [][]string{
		{"run", "double-billing", "--semantics", "alo", "--seed", "3", "--format", "json", "--check"},
		{"explore", "double-billing", "--semantics", "alo", "--check"},
	} {
		args = append(args, "--set", "timeout=3s", "--set", "timeout=1s")
		code, stdout, stderr := runOnce(args...)
		if code == exitUsage {
			t.Fatalf("once %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
		if !strings.Contains(stdout, "--set timeout=1s") || strings.Contains(stdout, "timeout=3s") {
			t.Errorf("once %s: the replay line does not spell the value used (timeout=1s):\n%s", strings.Join(args, " "), stdout)
		}
	}
}
