package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExploreKeepsTheScenarioPauseLength: explore offers a pause as a
// choice, but how long it lasts is the scenario's pause-ms. It used to be
// dropped for the kind's default (5 s), so a pause of 500 ms — shorter
// than redis-lock-expiry's 1 s lock — was explored as one past the TTL,
// and explore "found" a zombie that no run of the scenario can produce.
func TestExploreKeepsTheScenarioPauseLength(t *testing.T) {
	src, short := shortPauseLockExpiry(t)
	file := filepath.Join(t.TempDir(), "short-pause.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(short, "name: redis-lock-expiry", "name: short-pause", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file  string
		holds bool
	}{
		{file, true}, // 500 ms < the 1 s TTL: the lock outlives the pause, no zombie
		{src, false}, // 5 s > TTL: the zombie writes
	} {
		out, _ := runCLI(t, exitOK, "explore", "-f", c.file, "--format", "json", "--timing=false")
		var res struct {
			Holds bool `json:"holds"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v\n%s", c.file, err, out)
		}
		if res.Holds != c.holds {
			t.Errorf("explore %s: holds=%v, want %v\n%s", filepath.Base(c.file), res.Holds, c.holds, out)
		}
	}
}

// shortPauseLockExpiry is the catalog's redis-lock-expiry file (its path)
// and its text with the pause cut from 5 s to 500 ms, shorter than the
// lock's 1 s TTL.
func shortPauseLockExpiry(t *testing.T) (path, short string) {
	t.Helper()
	path = filepath.Join("..", "..", "scenarios", "catalog", "redis-lock-expiry.yaml")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const long = "pause-ms: 5000"
	if !strings.Contains(string(src), long) {
		t.Fatalf("redis-lock-expiry no longer says %q: update this test", long)
	}
	return path, strings.Replace(string(src), long, "pause-ms: 500", 1)
}
