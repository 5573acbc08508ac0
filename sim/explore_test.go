package sim_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
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
		res, err := sim.Explore(counterLoop(1_000_000), sim.ExploreOptions{MaxFaults: 1, MaxDepth: depth, Promise: sim.AtMostOne})
		if err != nil {
			t.Fatal(err)
		}
		if res.Complete || !strings.Contains(res.Cut, "depth budget") || res.States < depth {
			t.Fatalf("depth %d: want a search cut by its depth budget after ≥ %d states, got complete=%v cut=%q states=%d", depth, depth, res.Complete, res.Cut, res.States)
		}
		limit := depth/sim.ExploreCheckpointEvery + sim.ExploreWindow + 4
		if res.Worlds > limit {
			t.Errorf("depth %d: %d world buffers allocated, want ≤ %d (checkpoints + window)", depth, res.Worlds, limit)
		}
		t.Logf("depth %d: %d states, %d worlds, %d replayed steps, %d bytes", depth, res.States, res.Worlds, res.Replayed, res.Memory)
	}
}

// TestExploreMemoryBudgetCutsTheSearch: a search that outgrows its memory
// budget stops as incomplete, names the budget, and keeps its statistics.
func TestExploreMemoryBudgetCutsTheSearch(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.Idempotent, 4, "loss,ack-loss")
	const budget = 64 << 10
	res, err := sim.Explore(cfg, sim.ExploreOptions{MaxFaults: 5, Promise: sim.ExactlyOne, MaxMemory: budget})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || !res.Holds || res.Cut != "memory budget of 64KiB exhausted" {
		t.Fatalf("want INCOMPLETE by the memory budget, got complete=%v holds=%v cut=%q", res.Complete, res.Holds, res.Cut)
	}
	if res.States == 0 || res.Transitions == 0 || res.Memory <= budget {
		t.Fatalf("the cut search lost its statistics: %+v", res.ExploreStats)
	}
	full, err := sim.Explore(cfg, sim.ExploreOptions{MaxFaults: 5, Promise: sim.ExactlyOne})
	if err != nil {
		t.Fatal(err)
	}
	if !full.Complete || full.States <= res.States {
		t.Fatalf("without the budget the search should finish and see more states: %+v cut %q", full.ExploreStats, full.Cut)
	}
	again, err := sim.Explore(cfg, sim.ExploreOptions{MaxFaults: 5, Promise: sim.ExactlyOne, MaxMemory: budget})
	if err != nil {
		t.Fatal(err)
	}
	if again.ExploreStats != res.ExploreStats {
		t.Fatalf("the memory cut is not deterministic: %+v then %+v", res.ExploreStats, again.ExploreStats)
	}
}

// TestExploreReplayIsExact: keeping fewer worlds on the stack (rebuilding
// the others by replay) changes nothing a search reports — verdicts,
// counts, counterexample — only how many steps were replayed.
func TestExploreReplayIsExact(t *testing.T) {
	cases := []struct {
		name, faults string
		sem          sim.Semantics
		ops, max     int
		maxStates    int
	}{
		{"double-billing", "loss,ack-loss,crash", sim.Idempotent, 2, 3, 0},
		{"double-billing", "loss", sim.AtLeastOnce, 2, 3, 0},
		{"at-least-once-duplicate", "all", sim.Idempotent, 2, 2, 0},
		{"two-generals", "loss", sim.AtMostOnce, 1, 2, 0},
		{"flink-2pc-sink", "loss", sim.Transactional, 2, 2, 3000},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s", c.name, c.sem.Alias()), func(t *testing.T) {
			cfg := exploreConfig(t, c.name, c.sem, c.ops, c.faults)
			opt := sim.ExploreOptions{MaxFaults: c.max, Promise: sim.ExactlyOne, MaxStates: c.maxStates}
			want, err := sim.ExploreCheckpointed(cfg, opt, 1, 1<<30) // every world kept
			if err != nil {
				t.Fatal(err)
			}
			if want.Replayed != 0 {
				t.Fatalf("keeping every world replayed %d steps", want.Replayed)
			}
			for _, k := range [][2]int{{2, 2}, {3, 5}, {sim.ExploreCheckpointEvery, sim.ExploreWindow}} {
				got, err := sim.ExploreCheckpointed(cfg, opt, k[0], k[1])
				if err != nil {
					t.Fatal(err)
				}
				if k[0] == 2 && want.MaxDepth > 4 && got.Replayed == 0 {
					t.Errorf("every=2 window=2 at depth %d replayed nothing: the test exercises no restore", want.MaxDepth)
				}
				if !sameSearch(want, got) {
					t.Errorf("every=%d window=%d: %+v holds=%v complete=%v cut=%q choices=%v\nwant %+v holds=%v complete=%v cut=%q choices=%v",
						k[0], k[1], got.ExploreStats, got.Holds, got.Complete, got.Cut, got.Choices,
						want.ExploreStats, want.Holds, want.Complete, want.Cut, want.Choices)
				}
			}
		})
	}
}

// sameSearch compares what a search reports, leaving out the cost of
// keeping worlds (buffers, bytes, replayed steps).
func sameSearch(a, b *sim.ExploreResult) bool {
	sa, sb := a.ExploreStats, b.ExploreStats
	sa.Replayed, sa.Worlds, sa.Memory = 0, 0, 0
	sb.Replayed, sb.Worlds, sb.Memory = 0, 0, 0
	return sa == sb && a.Holds == b.Holds && a.Complete == b.Complete && a.Cut == b.Cut && a.Why == b.Why && slices.Equal(a.Choices, b.Choices)
}

// exploreConfig builds the configuration of a catalog scenario with the
// fault kinds an exhaustive search enumerates.
func exploreConfig(t *testing.T, name string, sem sim.Semantics, ops int, kinds string) *sim.Config {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	faults, _, err := scenarios.ExploreFaults(kinds)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: ops, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{2 << 30: "2GiB", 512 << 20: "512MiB", 1536 << 10: "1536KiB", 1000: "1000B", 0: "0B"} {
		if got := sim.FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestExploreStop: a closed Stop channel ends the search as incomplete,
// cut "interrupted", with what it counted so far.
func TestExploreStop(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	res, err := sim.Explore(exploreConfig(t, "double-billing", sim.Idempotent, 2, "loss"), sim.ExploreOptions{MaxFaults: 2, Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || !res.Holds || res.Cut != "interrupted" || res.States != 1 {
		t.Fatalf("want an interrupted search at its root, got complete=%v holds=%v cut=%q states=%d", res.Complete, res.Holds, res.Cut, res.States)
	}
}

// TestExploreFaultBound: a fault budget beyond MaxExploreFaults is a
// programmer error (flags and files check the same bound first).
func TestExploreFaultBound(t *testing.T) {
	cfg := exploreConfig(t, "double-billing", sim.Idempotent, 1, "loss")
	for _, n := range []int{-1, sim.MaxExploreFaults + 1} {
		if _, err := sim.Explore(cfg, sim.ExploreOptions{MaxFaults: n}); err == nil {
			t.Errorf("MaxFaults %d accepted", n)
		}
	}
}
