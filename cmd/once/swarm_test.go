package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMatrixSwarm: once matrix --swarm says that every seed drew its own
// profile, is the same whatever the workers, and a row it breaks comes
// with a replay line that carries --swarm and the seed's profile; that
// line, run, breaks the same promise (exit 1 under --check). Without
// --swarm the same row holds over the same seeds: the profiles are what
// found it (expired-dedup-ttl's ttl=90s row without its rate-bound line,
// a record redelivered past the TTL after a pile of losses and crashes no
// default rate reaches in 200 seeds). With the line, as the catalog has
// it, the swarm runs that row at its own rates and says why.
func TestMatrixSwarm(t *testing.T) {
	yaml, err := os.ReadFile("../../scenarios/catalog/expired-dedup-ttl.yaml")
	if err != nil {
		t.Fatal(err)
	}
	unbound := regexp.MustCompile(`\n\s*rate-bound: "[^"]*",`).ReplaceAllString(string(yaml), "")
	if unbound == string(yaml) {
		t.Fatal("expired-dedup-ttl.yaml declares no rate-bound row")
	}
	file := filepath.Join(t.TempDir(), "unbound.yaml")
	if err := os.WriteFile(file, []byte(unbound), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runOnce("matrix", "expired-dedup-ttl", "--seeds", "200", "--check", "--swarm"); code != exitOK ||
		!strings.Contains(out, "expired-dedup-ttl idem ttl=90s: a window claim") {
		t.Errorf("the catalog's expired-dedup-ttl under --swarm: exit %d, want its rate-bound rows run at their own rates, each with its reason:\n%s", code, out)
	}
	args := []string{"matrix", "-f", file, "--seeds", "200", "--check", "--swarm"}
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
	if code, _, _ := runOnce("matrix", "-f", file, "--seeds", "200", "--check"); code != exitOK {
		t.Errorf("without --swarm the rows hold over 200 seeds: exit %d", code)
	}
}
