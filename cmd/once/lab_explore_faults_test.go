package main

import (
	"slices"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestLabExploreKeepsTheScenarioPauseLength: `once lab --explore` offers a
// pause as a choice lasting the scenario's pause-ms, as `once explore`
// does. It used to take the kinds' defaults (a 5 s pause), so a 500 ms
// pause under a 1 s lock was explored as one past the TTL.
func TestLabExploreKeepsTheScenarioPauseLength(t *testing.T) {
	_, short := shortPauseLockExpiry(t)
	sc, err := scenarios.Load("short-pause.yaml", []byte(short))
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
