package search

import (
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// counterLoop is a world of one node that sends itself a message forever
// and counts the deliveries in a table, so every step is a new state and
// every send is a loss choice: each level of a search has an alternative
// left, the case where an explorer that keeps a world per level uses
// memory in proportion to depth.
func counterLoop(maxEvents int) *sim.Config {
	const counter = sim.TableID(0)
	n := &fnNode{
		start: func(ctx *sim.Context) { ctx.Send(ctx.Self(), sim.Message{Kind: 1, Op: 1, Attempt: 1}) },
		receive: func(ctx *sim.Context, m sim.Message) {
			r, _ := ctx.Get(counter, 1, m.Op)
			r.Value++
			ctx.Put(counter, 1, m.Op, r)
			ctx.Send(ctx.Self(), m)
		},
	}
	return &sim.Config{
		Topology: &sim.Topology{Nodes: []sim.NodeSpec{{Name: "looper", Tables: []sim.TableSpec{{Name: "counter", Durable: true}}}}},
		Nodes:    []sim.Node{n},
		Network:  &fixedNet{delay: 1, lossProbability: 0.5},
		Ops:      1, Semantics: sim.AtMostOnce, MaxEvents: maxEvents,
	}
}

// TestExploreWorldsDoNotGrowWithDepth: a search 20 times deeper allocates
// no more world buffers than the checkpoints and the window need; the
// explorer that kept a world per level allocated one per level.
func TestExploreWorldsDoNotGrowWithDepth(t *testing.T) {
	for _, depth := range []int{300, 6000} {
		res, err := Explore(counterLoop(1_000_000), Options{MaxFaults: 1, MaxDepth: depth, Promise: sim.AtMostOne})
		if err != nil {
			t.Fatal(err)
		}
		if res.Complete || !strings.Contains(res.Cut, "depth budget") || res.States < depth {
			t.Fatalf("depth %d: want a search cut by its depth budget after ≥ %d states, got complete=%v cut=%q states=%d", depth, depth, res.Complete, res.Cut, res.States)
		}
		limit := depth/DefaultCheckpointEvery + DefaultWindow + 4
		if res.Worlds > limit {
			t.Errorf("depth %d: %d world buffers allocated, want ≤ %d (checkpoints + window)", depth, res.Worlds, limit)
		}
		t.Logf("depth %d: %d states, %d worlds, %d replayed steps, %d bytes", depth, res.States, res.Worlds, res.Replayed, res.Memory)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{2 << 30: "2GiB", 512 << 20: "512MiB", 1536 << 10: "1536KiB", 1000: "1000B", 0: "0B"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestExploreTuningIsChecked: a negative spacing or window, or a window
// below the spacing, is refused with the field named; a spacing above the
// default window alone widens the window to it.
func TestExploreTuningIsChecked(t *testing.T) {
	for _, c := range []struct {
		tuning Tuning
		err    string
	}{
		{Tuning{CheckpointEvery: -1}, "checkpoint spacing -1 is negative"},
		{Tuning{Window: -2}, "window of -2 levels is negative"},
		{Tuning{CheckpointEvery: 8, Window: 4}, "window of 4 levels is below the checkpoint spacing 8"},
		{Tuning{CheckpointEvery: 2 * DefaultWindow}, ""},
		{Tuning{SplitAt: -1}, ""},
	} {
		_, err := Explore(counterLoop(200), Options{MaxFaults: 1, Promise: sim.AtMostOne, Tuning: c.tuning})
		if c.err == "" && err != nil {
			t.Errorf("%+v: %v", c.tuning, err)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%+v: error %v, want one containing %q", c.tuning, err, c.err)
		}
	}
}

// The explorer enumerates the preemption only within its budget, and the
// budget is its own: with no fault allowed, a budget of 1 still tries a
// preemption after either read (3 schedules), a budget of 0 none.
func TestExplorePreemptionBudget(t *testing.T) {
	for _, c := range []struct {
		preemptions, wantSchedules int
	}{{0, 1}, {1, 3}} {
		res, err := Explore(storeConfig(), Options{MaxFaults: 0, MaxPreemptions: c.preemptions, Promise: sim.AtMostOne, Stateless: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Schedules != c.wantSchedules {
			t.Errorf("max-preemptions %d: %d schedules, want %d", c.preemptions, res.Schedules, c.wantSchedules)
		}
	}
}
