package main

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// runCLI executes a command line and fails the test unless it exits with want.
func runCLI(t *testing.T, want int, args ...string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := execute(args, &stdout, &stderr); code != want {
		t.Fatalf("once %s: exit %d, want %d\nstderr: %s", strings.Join(args, " "), code, want, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// TestMatrixDeterministicAcrossWorkers: the matrix is a function of the
// scenarios and the seeds only — byte-identical JSON whatever --workers and
// GOMAXPROCS, so a CI machine and a laptop agree.
func TestMatrixDeterministicAcrossWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	seeds := "30" // not a multiple of the chunk size: the last chunk is short
	var want string
	for _, c := range []struct {
		procs   int
		workers string
	}{{1, "1"}, {1, "4"}, {2, "3"}, {8, "64"}} {
		runtime.GOMAXPROCS(c.procs)
		got, _ := runCLI(t, exitOK, "matrix", "--seeds", seeds, "--workers", c.workers, "--format", "json")
		if want == "" {
			want = got
		} else if got != want {
			t.Fatalf("GOMAXPROCS=%d --workers %s: the JSON differs from GOMAXPROCS=1 --workers 1", c.procs, c.workers)
		}
	}
	if !strings.Contains(want, `"schema": "once.matrix/v1"`) || !strings.Contains(want, `"runs": 30`) {
		t.Fatalf("unexpected matrix JSON:\n%s", want)
	}
}

// TestSweepDeterministicAcrossWorkers: the same for a sweep.
func TestSweepDeterministicAcrossWorkers(t *testing.T) {
	args := []string{"sweep", "double-billing", "--vary", "ttl=0:2s:500ms", "--seeds", "37", "--format", "json"}
	one, _ := runCLI(t, exitOK, append(args, "--workers", "1")...)
	many, _ := runCLI(t, exitOK, append(args, "--workers", "5")...)
	if one != many {
		t.Fatalf("sweep JSON differs between --workers 1 and 5")
	}
}

// TestUnknownScenario: every command that takes a scenario rejects an
// unknown name with exit 2 and one line naming it.
func TestUnknownScenario(t *testing.T) {
	for _, args := range [][]string{
		{"matrix", "double-billing", "no-such-scenario"},
		{"sweep", "no-such-scenario", "--vary", "loss=0:1:0.5"},
		{"explain", "no-such-scenario"},
		{"run", "no-such-scenario"},
		{"explore", "no-such-scenario"},
	} {
		_, stderr := runCLI(t, exitUsage, args...)
		if !strings.HasPrefix(stderr, `once: unknown scenario "no-such-scenario"`) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("once %s: stderr %q", strings.Join(args, " "), stderr)
		}
	}
}
