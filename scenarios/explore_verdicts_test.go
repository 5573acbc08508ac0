package scenarios_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/internal/golden"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// exploreBlock is one exhaustive search the catalog declares: a
// scenario's explore defaults under one of its semantics, or an
// expectation row that asks for a proof.
type exploreBlock struct {
	name string
	sc   *scenarios.Scenario
	set  scenarios.Settings
	opt  search.Options
}

// catalogExploreBlocks lists every explore block of the catalog, in
// catalog order.
func catalogExploreBlocks(t *testing.T) []exploreBlock {
	t.Helper()
	var blocks []exploreBlock
	for _, sc := range scenarios.All() {
		d := sc.ExploreDefaults
		faults, _, err := scenarios.ExploreFaults(d.Faults)
		if err != nil {
			t.Fatal(err)
		}
		faults.Duration = sc.Faults.Duration // the scenario's pause-ms, late-ms, as `once explore` uses them
		for _, sem := range sc.Semantics {
			promise := sim.ExactlyOne
			if d.Property == "promise" {
				promise = sem.Promise()
			}
			blocks = append(blocks, exploreBlock{sc.Name + "/explore/" + sem.Alias(), sc,
				scenarios.Settings{Semantics: sem, Ops: d.Ops, Faults: faults},
				search.Options{MaxFaults: d.MaxFaults, MaxPreemptions: d.MaxPreemptions, Promise: promise}})
		}
		for i := range sc.Expect {
			e := &sc.Expect[i]
			if e.Explore == 0 {
				continue
			}
			set := e.Settings(sc)
			set.Ops = d.Ops
			f := faults
			f.Duration = set.Faults.Duration // the row's pause-ms, late-ms
			set.Faults = f
			blocks = append(blocks, exploreBlock{fmt.Sprintf("%s/expect-%d", sc.Name, i), sc, set,
				search.Options{MaxFaults: e.Explore, MaxPreemptions: d.MaxPreemptions, Promise: proofPromise(e)}})
		}
	}
	return blocks
}

const verdictsHeader = `# The verdict of every explore block of the catalog (a scenario's explore
# defaults under each semantics, and every expectation row with explore:)
# and its counterexample as the explorer's choices. A reduction of the
# state space (what the fingerprint merges) must leave this file alone;
# only the number of states may change. Refresh with
#   make update ONLY=explore-verdicts      (or ONLY=NAME for one scenario's)
# block verdict choices | why
`

// TestPinnedExploreVerdicts pins the verdict and counterexample of every
// explore block of the catalog in testdata/explore_verdicts.txt, so that
// a change to what the explorer merges that changes any of them shows as
// a diff there, not only as a number of states.
func TestPinnedExploreVerdicts(t *testing.T) {
	file := filepath.Join("..", "testdata", "explore_verdicts.txt")
	want, err := os.ReadFile(file)
	if err != nil && !(rewriting() && os.IsNotExist(err)) {
		t.Fatalf("%v (create it with -rewrite)", err)
	}
	var b strings.Builder
	b.WriteString(verdictsHeader)
	for _, bl := range catalogExploreBlocks(t) {
		cfg, err := bl.sc.Config(bl.set)
		if err != nil {
			t.Fatalf("%s: %v", bl.name, err)
		}
		bl.opt.MaxStates = 2_000_000
		res, err := search.Explore(cfg, bl.opt)
		if err != nil {
			t.Fatalf("%s: %v", bl.name, err)
		}
		verdict := "holds"
		switch {
		case !res.Holds:
			verdict = "violated"
		case !res.Complete:
			verdict = "incomplete"
		}
		choices := make([]string, len(res.Choices))
		for i, c := range res.Choices {
			choices[i] = fmt.Sprint(c)
		}
		line := fmt.Sprintf("%s %s %s | %s", bl.name, verdict, strings.Join(choices, ","), res.Why)
		if rewriting() && !golden.Asked("explore-verdicts", bl.sc.Name) { // outside ONLY: kept, its drift shown
			if old, ok := pinnedVerdict(string(want), bl.name); ok {
				if old != line {
					t.Errorf("%s:\n  now:    %s\n  pinned: %s%s", bl.name, line, old, golden.Left(true, "explore-verdicts", bl.sc.Name))
				}
				line = old
			}
		}
		b.WriteString(line + "\n")
	}
	if rewriting() {
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, pinned := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(got), len(pinned)) {
		g, p := "", ""
		if i < len(got) {
			g = got[i]
		}
		if i < len(pinned) {
			p = pinned[i]
		}
		if g != p {
			t.Errorf("line %d:\n  now:    %s\n  pinned: %s", i+1, g, p)
		}
	}
	if t.Failed() {
		t.Log("explore verdicts changed; if the change is meant, refresh with -rewrite and read the diff")
	}
}

// pinnedVerdict is the line of block name in the pinned file's text.
func pinnedVerdict(pinned, name string) (string, bool) {
	for _, l := range strings.Split(pinned, "\n") {
		rest, ok := strings.CutPrefix(l, name+" ")
		if !ok {
			continue
		}
		if v, _, _ := strings.Cut(rest, " "); v == "holds" || v == "violated" || v == "incomplete" {
			return l, true
		}
	}
	return "", false
}

// TestReductionKeepsCatalogVerdicts runs every explore block of the
// catalog that the symmetry reduction applies to with and without it:
// the verdict, the counterexample (its choices, so its faults) and
// whether the search completed must be the same, and the reduced search
// must not store more states. (A block the reduction does not apply to is
// the same search either way: Explore with ReduceNone and with the
// default differ only in the symmetry, which is off there.)
func TestReductionKeepsCatalogVerdicts(t *testing.T) {
	compared := 0
	for _, bl := range catalogExploreBlocks(t) {
		cfg, err := bl.sc.Config(bl.set)
		if err != nil {
			t.Fatalf("%s: %v", bl.name, err)
		}
		bl.opt.MaxStates = 2_000_000
		reduced, err := search.Explore(cfg, bl.opt)
		if err != nil {
			t.Fatalf("%s: %v", bl.name, err)
		}
		if !reduced.Symmetry {
			continue
		}
		compared++
		plain := bl.opt
		plain.Reduce = search.ReduceNone
		want, err := search.Explore(cfg, plain)
		if err != nil {
			t.Fatalf("%s: %v", bl.name, err)
		}
		if reduced.Holds != want.Holds || reduced.Complete != want.Complete || fmt.Sprint(reduced.Choices) != fmt.Sprint(want.Choices) {
			t.Errorf("%s: reduced holds=%v complete=%v %v; unreduced holds=%v complete=%v %v", bl.name,
				reduced.Holds, reduced.Complete, reduced.Choices, want.Holds, want.Complete, want.Choices)
		}
		if want.Complete && reduced.States > want.States {
			t.Errorf("%s: the reduction stored more states: %d > %d", bl.name, reduced.States, want.States)
		}
		t.Logf("%s: holds=%v, %d states reduced, %d unreduced", bl.name, reduced.Holds, reduced.States, want.States)
	}
	if compared == 0 {
		t.Fatal("the symmetry reduction applies to no explore block of the catalog: nothing was compared")
	}
}
