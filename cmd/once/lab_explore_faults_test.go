package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestLabExploreKeepsTheScenarioPauseLength: `once lab --explore` offers a
// pause as a choice lasting the scenario's pause-ms, as `once explore`
// does. It used to take the kinds' defaults (a 5 s pause), so a 500 ms
// pause under a 1 s lock was explored as one past the TTL.
func TestLabExploreKeepsTheScenarioPauseLength(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "scenarios", "catalog", "redis-lock-expiry.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const long, short = "pause-ms: 5000", "pause-ms: 500"
	if !strings.Contains(string(src), long) {
		t.Fatalf("redis-lock-expiry no longer says %q: update this test", long)
	}
	sc, err := scenarios.Load("short-pause.yaml", []byte(strings.Replace(string(src), long, short, 1)))
	if err != nil {
		t.Fatal(err)
	}
	faults, kinds, err := labExploreFaults(&labOptions{}, sc)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(kinds, "pause") {
		t.Fatalf("redis-lock-expiry's explore faults %v do not offer a pause: update this test", kinds)
	}
	if got := faults.DurationOf(sim.FaultPause); got != 500 {
		t.Errorf("lab --explore pauses for %d ms, want the scenario's 500", got)
	}
}
