package shard

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestReadRefusesHostileHeaders: a header is checked before anything
// prints it: the command one merge knows, arguments and scenario file
// names short text without control characters, scenario files no larger
// than one. Each refusal names the file and the field.
func TestReadRefusesHostileHeaders(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		edit func(h *Header)
		want string
	}{
		{func(h *Header) { h.Command = "rm" }, `command: "rm": a shard is of matrix, sweep or explore`},
		{func(h *Header) { h.Args = append(h.Args, "--format=\x1b]52;c;x\a") }, `args[1]: "--format=\x1b]52;c;x\a" holds a control character`},
		{func(h *Header) { h.Args = append(h.Args, "\ufffd") }, "holds U+FFFD (bytes that were not UTF-8)"},
		{func(h *Header) { h.Args = append(h.Args, strings.Repeat("a", MaxArgBytes+1)) }, "is longer than 4096 bytes"},
		{func(h *Header) { h.Args = make([]string, MaxArgs+1) }, "args: 1001 arguments, more than 1000"},
		{func(h *Header) { h.ScenarioFiles = []ScenarioFile{{Name: "", Text: "x"}} }, "scenario_files[0].name: empty"},
		{func(h *Header) { h.ScenarioFiles = []ScenarioFile{{Name: "a\nb", Text: "x"}} }, `scenario_files[0].name: "a\nb" holds a control character`},
		{func(h *Header) {
			h.ScenarioFiles = []ScenarioFile{{Name: "big.yaml", Text: strings.Repeat("#", scenarios.MaxScenarioFileBytes+1)}}
		}, "scenario_files[0].text: 1048577 bytes, more than a scenario file's"},
	} {
		d := rowShards(t, 10, 2)[0]
		c.edit(&d.Header)
		p := write(t, dir, "h.json", d)
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("Read: %v, want %q", err, c.want)
		}
	}
}

// TestCheckTallies: the seeds and the operations the arguments give must
// be those the shards tallied; the refusal names the shard and the field.
func TestCheckTallies(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, d := range rowShards(t, 20, 2) {
		paths = append(paths, write(t, dir, string(rune('a'+i))+".json", d))
	}
	m, err := Merge(paths)
	if err != nil {
		t.Fatal(err)
	}
	perRun := m.Tallies[0].Ops / m.Tallies[0].Runs
	for _, c := range []struct {
		seeds, ops int
		want       string
	}{
		{20, perRun, ""},
		{1_000_000, perRun, "a.json: args: --seeds 1000000, but the shards tallied 20 seeds"},
		{20, 1000, "a.json: rows[0].ops: "},
	} {
		err := m.CheckTallies([]string{"row"}, []*sim.Config{{Ops: c.ops}}, c.seeds)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("seeds %d, ops %d: %v, want %q", c.seeds, c.ops, err, c.want)
		}
	}
}

// TestCheckSearch: the bounds the arguments give must be those the shards
// searched within, and the counts must fit them.
func TestCheckSearch(t *testing.T) {
	dir := t.TempDir()
	s := Search{Semantics: "idem", Ops: 2, MaxFaults: 2, Faults: "loss", Property: "exactly-once", MaxDepth: 100, MaxStates: 1000}
	var paths []string
	for i := range 2 {
		paths = append(paths, write(t, dir, string(rune('a'+i))+".json",
			&ExploreDoc{Header: Header{Command: "explore", Args: []string{"x"}, Index: i, Count: 2}, Search: s, Holds: true, Complete: true, Choices: []int{}, MaxDepth: 40 + i*70, States: 10}))
	}
	m, err := Merge(paths)
	if err != nil {
		t.Fatal(err)
	}
	more := s
	more.Ops, more.MaxFaults = 1000, 20
	for _, c := range []struct {
		want Search
		err  string
	}{
		{more, `a.json: search.ops: "2", but the shard's arguments give "1000"`},
		{s, "b.json: max_depth: 110, deeper than the search's depth budget of 100"},
	} {
		if err := m.Explore.CheckSearch(c.want); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("CheckSearch(%+v): %v, want %q", c.want, err, c.err)
		}
	}
	other := &ExploreDoc{Header: Header{Command: "explore", Args: []string{"x"}, Index: 1, Count: 2}, Search: more, Holds: true, Complete: true, Choices: []int{}}
	if _, err := Merge([]string{paths[0], write(t, dir, "c.json", other)}); err == nil || !strings.Contains(err.Error(), "c.json: search: bounds other than those") {
		t.Errorf("shards of other bounds merged: %v", err)
	}
}
