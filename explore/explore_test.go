package explore

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// setup is double-billing under at-least-once with the scenario's explore
// defaults: a search that finds a counterexample.
func setup(t *testing.T) (*scenarios.Scenario, scenarios.Settings, *sim.Config, []string) {
	t.Helper()
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	faults, kinds, err := sc.ExploreFaults(sc.ExploreDefaults.Faults)
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: sc.ExploreDefaults.Ops, Faults: faults, Params: map[string]string{}}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	return sc, set, cfg, kinds
}

func TestMinimalCounterexampleIsShrunkAndReplayable(t *testing.T) {
	sc, set, cfg, _ := setup(t)
	opt := search.Options{MaxFaults: 3, Promise: sim.ExactlyOne, Workers: 1}
	res, err := search.Explore(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds {
		t.Fatal("want a counterexample under at-least-once")
	}
	var stderr bytes.Buffer
	cex, err := MinimalCounterexample(cfg, sim.ExactlyOne, sc, set, res, opt, Replay{Faults: "loss", Property: "exactly-once", MaxDepth: 9, MaxMemory: 64 << 20}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if cex.Minimal == nil || len(cex.Faults) > len(res.Choices) || cex.Cause == "" || len(cex.Steps) == 0 {
		t.Fatalf("counterexample = %+v", cex)
	}
	want := "once explore double-billing --semantics alo --ops " // the search's own settings follow
	if !strings.HasPrefix(cex.Replay, want) || !strings.Contains(cex.Replay, " --faults loss --property exactly-once") ||
		!strings.Contains(cex.Replay, " --max-depth 9 --max-memory 64MiB --save cex.plan && once replay cex.plan") {
		t.Errorf("replay line = %q", cex.Replay)
	}
	if stderr.Len() != 0 {
		t.Errorf("nothing saved, yet stderr = %q", stderr.String())
	}
}

func TestShrunkPlanStillViolates(t *testing.T) {
	_, _, cfg, _ := setup(t)
	res, err := search.Explore(cfg, search.Options{MaxFaults: 3, Promise: sim.ExactlyOne, Workers: 1})
	if err != nil || res.Holds {
		t.Fatalf("explore: %v, holds %v", err, res.Holds)
	}
	found, plan, err := ShrunkPlan(cfg, sim.ExactlyOne, res.Choices)
	if err != nil {
		t.Fatal(err)
	}
	if faultsIn(plan) > faultsIn(found) {
		t.Errorf("shrinking added faults: %d > %d", faultsIn(plan), faultsIn(found))
	}
	if v, _, err := search.Violates(cfg, sim.ExactlyOne, plan, nil, nil); err != nil || !v {
		t.Errorf("the shrunk plan %v no longer violates (%v)", plan, err)
	}
}

func TestOnlyKindsThatBranchRefusesAnExplicitKindWithNoChoicePoint(t *testing.T) {
	sc, set, _, _ := setup(t)
	faults, kinds, err := sc.ExploreFaults("all")
	if err != nil {
		t.Fatal(err)
	}
	set.Faults = faults
	k := Kinds{Faults: "all"}
	if err := k.OnlyKindsThatBranch(sc, &set, &kinds); err != nil {
		t.Fatal(err)
	}
	if k.Faults == "all" || k.Faults == "" || strings.Join(kinds, ",") != k.Faults {
		t.Errorf("all narrowed to %q (kinds %v)", k.Faults, kinds)
	}
	// Every kind named explicitly must branch: the narrowed list does.
	explicit := Kinds{Faults: k.Faults, Changed: func(name string) bool { return name == "faults" }}
	if err := explicit.OnlyKindsThatBranch(sc, &set, &kinds); err != nil {
		t.Errorf("kinds that branch refused: %v", err)
	}
}

func TestProgressLineIsEndedOnlyWhenDrawn(t *testing.T) {
	var w bytes.Buffer
	p := NewProgressLine(&w)
	p.End()
	if w.Len() != 0 {
		t.Fatalf("an undrawn line was cleared: %q", w.String())
	}
	p.Draw(search.Stats{States: 3, Schedules: 2, MaxDepth: 5, Memory: 2 << 20})
	p.End()
	got := w.String()
	if !strings.HasPrefix(got, "\r\033[Kexploring: 3 states · 2 schedules · depth 5 · 2.0 MiB held · ") || !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("progress line = %q", got)
	}
	NewProgressLine(nil).Draw(search.Stats{}) // no writer: nothing drawn, no panic
}

func TestMemoryBudgetWithoutALimitIsTheAsked(t *testing.T) {
	if addressSpaceLimit() != 0 {
		t.Skip("this process runs under an address-space limit")
	}
	if got, capped := MemoryBudget(1 << 30); got != 1<<30 || capped {
		t.Errorf("MemoryBudget(1GiB) = %d, %v", got, capped)
	}
	restore := LimitHeap(1 << 30)
	restore()
}

func TestDefaultsFillOnlyWhatWasNotGiven(t *testing.T) {
	sc, _, _, _ := setup(t)
	d := sc.ExploreDefaults
	b := Bounds{Semantics: "alo", Ops: 99, MaxFaults: 7, Faults: "crash"}
	b.Defaults(sc, func(name string) bool { return name == "semantics" || name == "ops" })
	want := Bounds{Semantics: "alo", Ops: 99, MaxFaults: d.MaxFaults, MaxPreemptions: d.MaxPreemptions, Faults: d.Faults, Property: d.Property}
	if b != want {
		t.Errorf("Defaults = %+v, want %+v", b, want)
	}
	b.Defaults(sc, nil)
	if b.Semantics != "idem" || b.Ops != d.Ops {
		t.Errorf("with nothing given: semantics %s ops %d, want idem (the strongest double-billing has) and %d", b.Semantics, b.Ops, d.Ops)
	}
}

func TestHeapLimitHoldsTheResidentBound(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ budget, base, want int64 }{
		{256 * mib, 10 * mib, 304 * mib}, // a sixteenth and the slack: under base + 1.25 × budget
		{16 * mib, 10 * mib, 30 * mib},   // base + 1.25 × budget: under the budget with the slack
	} {
		if got := HeapLimit(c.budget, c.base); got != c.want {
			t.Errorf("HeapLimit(%d MiB, base %d MiB) = %d MiB, want %d", c.budget/mib, c.base/mib, got/mib, c.want/mib)
		}
	}
	if b := runtimeBytes(); b <= 0 {
		t.Errorf("runtimeBytes() = %d", b)
	}
}
