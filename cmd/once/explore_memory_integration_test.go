//go:build integration

package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestIntegrationExploreUnderAddressSpaceLimit runs the built binary under
// `ulimit -v` (RLIMIT_AS), as issue 17 asks: before, a search whose
// budget did not fit died with "fatal error: out of memory" and a
// goroutine dump. First, under 3 000 000 KiB, a budget far above the
// limit is capped and the cap is said on stderr; then, under a limit
// that leaves the search a few MiB (16 at most: the process maps a little
// more or less from one start to the next), a search that needs much more
// ends INCOMPLETE by its memory budget, with its statistics and exit 0,
// and nothing of the runtime's on stderr.
func TestIntegrationExploreUnderAddressSpaceLimit(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "once")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(limitKiB int64, args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command("bash", append([]string{"-c", `ulimit -v "$1" && shift && exec "$@"`, "bash", strconv.FormatInt(limitKiB, 10), bin}, args...)...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if s := stderr.String(); strings.Contains(s, "fatal error") || strings.Contains(s, "goroutine ") {
			t.Fatalf("the runtime died under ulimit -v %d:\n%s", limitKiB, s[:min(len(s), 2000)])
		}
		return code, stdout.String(), stderr.String()
	}

	const limit = 3_000_000
	code, stdout, stderr := run(limit, "explore", "double-billing", "--semantics", "idem", "--max-faults", "1", "--max-memory", "64GiB", "--timing=false")
	m := regexp.MustCompile(`--max-memory 64GiB capped to (\d+)MiB by the address-space limit`).FindStringSubmatch(stderr)
	if code != exitOK || m == nil || !strings.Contains(stdout, "HOLDS") {
		t.Fatalf("under ulimit -v %d: exit %d, want 0, HOLDS and the cap on stderr\nstdout:\n%s\nstderr:\n%s", limit, code, stdout, stderr)
	}
	capMiB, _ := strconv.ParseInt(m[1], 10, 64)
	// The cap is (limit - mapped - 32 MiB) / 2: a limit lower by
	// 2 × (cap - 16 MiB) leaves a budget of about 16 MiB.
	small := int64(limit) - 2*(capMiB-16)*1024
	code, stdout, stderr = run(small, "explore", "kafka-eos-happy-path", "--semantics", "txn", "--ops", "4", "--max-faults", "8", "--faults", "all", "--timing=false", "--workers", "2")
	if code != exitOK || !strings.Contains(stdout, "INCOMPLETE") || !strings.Contains(stdout, "memory budget of") || !strings.Contains(stdout, "explored ") {
		t.Fatalf("under ulimit -v %d: exit %d, want 0 and INCOMPLETE by the memory budget with statistics\nstdout:\n%s\nstderr:\n%s", small, code, stdout, stderr)
	}
	t.Logf("under ulimit -v %d: %s", small, strings.TrimSpace(stdout))
}
