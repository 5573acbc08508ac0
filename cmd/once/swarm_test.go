package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestMatrixSwarm: once matrix --swarm says that every seed drew its own
// profile, is the same whatever the workers, and a row it breaks comes
// with a replay line that carries --swarm and the seed's profile; that
// line, run, breaks the same promise (exit 1 under --check). Without
// --swarm the same row holds over the same seeds: the profiles are what
// found it (expired-dedup-ttl's ttl=90s row, a retry past the TTL after a
// pile of losses and crashes no default rate reaches in 200 seeds).
func TestMatrixSwarm(t *testing.T) {
	args := []string{"matrix", "expired-dedup-ttl", "--seeds", "200", "--check", "--swarm"}
	code, out, stderr := runOnce(append(args, "--workers", "1")...)
	if code != exitViolation {
		t.Fatalf("once %s: exit %d, stderr %q; want a broken row", strings.Join(args, " "), code, stderr)
	}
	if _, again, _ := runOnce(append(args, "--workers", "3")...); again != out {
		t.Error("a swarm matrix depends on the number of workers")
	}
	if !strings.Contains(out, "swarm: every seed drew its own fault profile") {
		t.Errorf("the report does not say it was a swarm:\n%s", out)
	}
	m := regexp.MustCompile(`replay: once (run [^(]*--swarm) \(swarm profile: ([^)]*)\)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no swarm replay line:\n%s", out)
	}
	replay := append(strings.Fields(m[1]), "--check")
	code, rerun, _ := runOnce(replay...)
	if code != exitViolation || !strings.Contains(rerun, "drew the fault profile "+m[2]) {
		t.Errorf("once %s: exit %d, want the broken promise again under the profile %q:\n%s", strings.Join(replay, " "), code, m[2], rerun)
	}
	if code, _, _ := runOnce("matrix", "expired-dedup-ttl", "--seeds", "200", "--check"); code != exitOK {
		t.Errorf("without --swarm the rows hold over 200 seeds: exit %d", code)
	}
}
