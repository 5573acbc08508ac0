package shard

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// rowShards runs double-billing's first row on n shards of seeds and
// returns their documents.
func rowShards(t *testing.T, seeds, n int) []*Doc {
	t.Helper()
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	e := &sc.Expect[0]
	cfg, err := sc.Config(e.Settings(sc))
	if err != nil {
		t.Fatal(err)
	}
	var docs []*Doc
	for i := range n {
		s := batch.Shard{Index: i, Count: n}
		r := s.Seeds(seeds)
		ts := batch.RunSeeds([]*sim.Config{cfg}, r, 1, nil)
		docs = append(docs, &Doc{Header: Header{Command: "matrix", Args: []string{"double-billing"}, Index: i, Count: n},
			Seeds: seeds, From: r.Lo, To: r.Hi, Rows: []Row{NewRow("row", &ts[0])}})
	}
	return docs
}

func write(t *testing.T, dir, name string, d document) string {
	t.Helper()
	data, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMergeSumsShards(t *testing.T) {
	dir := t.TempDir()
	docs := rowShards(t, 40, 3)
	var paths []string
	for i, d := range docs {
		paths = append(paths, write(t, dir, string(rune('a'+i))+".json", d))
	}
	m, err := Merge(paths)
	if err != nil {
		t.Fatal(err)
	}
	if m.Tallies[0].Runs != 40 || m.Seeds != 40 || len(m.Labels) != 1 {
		t.Fatalf("merged %+v", m)
	}
}

// TestReadRefusesTamperedShards: a count edited (with the checksum
// recomputed, as a careful forger would) is refused by the consistency
// checks; an edit that leaves the checksum is refused by the checksum.
// Each error names the file and the field.
func TestReadRefusesTamperedShards(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		edit func(d *Doc)
		want string
	}{
		{func(d *Doc) { d.Rows[0].WithDup = 999999 }, "rows[0].runs_with_duplicated: 999999 is more than the row's"},
		{func(d *Doc) { d.Rows[0].Effects = -1 }, "rows[0].effects: -1 is negative"},
		{func(d *Doc) { d.Rows[0].Runs++; d.Rows[0].Finished++ }, "rows[0].runs: "},
		{func(d *Doc) { d.Rows[0].WithLost, d.Rows[0].FirstLost = 0, 3 }, "rows[0].first_lost: seed 3, but no run counted"},
		{func(d *Doc) { d.Rows[0].FirstUnfinished, d.Rows[0].Finished = 9999, d.Rows[0].Finished-1 }, "rows[0].first_unfinished: seed 9999 is not among"},
		{func(d *Doc) { d.Rows[0].Unsettled = 999999 }, "rows[0].runs_unsettled: 999999 is more than the row's"},
		{func(d *Doc) { d.Rows[0].Unsettled, d.Rows[0].FirstUnsettled = 0, 3 }, "rows[0].first_unsettled: seed 3, but no run counted"},
		{func(d *Doc) { d.Rows[0].Unsettled, d.Rows[0].FirstUnsettled = 1, 9999 }, "rows[0].first_unsettled: seed 9999 is not among"},
		{func(d *Doc) { d.From++ }, "from, to: shard 0/2 covers seeds 2..20, want 1..20"},
		{func(d *Doc) { d.Seeds = 0 }, "seeds: 0 is not in"},
	} {
		d := rowShards(t, 40, 2)[0]
		c.edit(d)
		p := write(t, dir, "x.json", d)
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("Read: %v, want %q", err, c.want)
		}
	}
	p := write(t, dir, "y.json", rowShards(t, 40, 2)[0])
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), `"runs_with_duplicated": `, `"runs_with_duplicated": 9`, 1)), 0o644)
	if _, err := Read(p); err == nil || !strings.Contains(err.Error(), "checksum: ") {
		t.Errorf("an edit without a new checksum: %v", err)
	}
}

func TestMergeRefusesMismatchedShards(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a.json", rowShards(t, 40, 2)[0])
	b := write(t, dir, "b.json", rowShards(t, 41, 2)[1])
	x := write(t, dir, "x.json", &ExploreDoc{Header: Header{Command: "explore", Index: 1, Count: 3}, Holds: true, Complete: true, Choices: []int{}})
	y := write(t, dir, "y.json", &ExploreDoc{Header: Header{Command: "explore", Index: 0, Count: 2}, Holds: true, Complete: true, Choices: []int{}})
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{a, b}, "shard of `matrix double-billing` (2 shards, 41 seeds)"},
		{[]string{a}, "1 of 2 shards given; missing 1"},
		{[]string{a, a}, "both are shard 0/2"},
		// An explore shard has no seeds: its header says none.
		{[]string{y, x}, "x.json: shard of `explore` (3 shards), but "},
	} {
		if _, err := Merge(c.paths); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Merge %v: %v, want %q", c.paths, err, c.want)
		}
	}
}

func TestExploreShardFieldChecks(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		d    ExploreDoc
		want string
	}{
		{ExploreDoc{Holds: true, Complete: true, Choices: []int{1}}, "choices: holds, yet has a counterexample"},
		{ExploreDoc{Holds: true, Complete: false}, "cut: incomplete, yet no cause given"},
		{ExploreDoc{Holds: true, Complete: true, States: -5}, "states: -5 is negative"},
		{ExploreDoc{Holds: false, Complete: true, Choices: []int{-1}}, "choices[0]: -1 is negative"},
	} {
		c.d.Header = Header{Command: "explore", Count: 1}
		p := write(t, dir, "e.json", &c.d)
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Read: %v, want %q", err, c.want)
		}
	}
}

// TestCheckCounterexample: the real counterexample of a search replays;
// an edited one (answers the run never offers, or a path that holds) is
// refused, naming the shard it came from.
func TestCheckCounterexample(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	faults, _, err := sc.ExploreFaults("all")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 2, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	res, err := search.Explore(cfg, search.Options{MaxFaults: 2, Promise: sim.ExactlyOne, Workers: 1})
	if err != nil || res.Holds {
		t.Fatalf("want a counterexample: %v %+v", err, res)
	}
	promise := sim.ExactlyOne
	good := &ExploreMerged{Result: res, Shards: 1, From: "p0.json"}
	if err := good.CheckCounterexample(cfg, promise, 2); err != nil {
		t.Fatalf("the search's own counterexample: %v", err)
	}
	if err := good.CheckCounterexample(cfg, promise, 0); err == nil || !strings.Contains(err.Error(), "more than the search's 0") {
		t.Errorf("over --max-faults: %v", err)
	}
	for _, c := range []struct {
		choices []int
		want    string
	}{
		{[]int{99, 99, 99}, "p1.json: choices[0]: 99 is not one of the"},
		{[]int{}, "p1.json: choices: the counterexample does not violate the property"},
		{append(append([]int{}, res.Choices...), make([]int, 100000)...), "p1.json: choices: "},
	} {
		bad := &ExploreMerged{Result: &search.Result{Holds: false, Choices: c.choices}, Shards: 1, From: "p1.json"}
		if err := bad.CheckCounterexample(cfg, promise, 2); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("choices %v: %v, want %q", c.choices[:min(len(c.choices), 5)], err, c.want)
		}
	}
}

func TestParseSpec(t *testing.T) {
	env := map[string]string{"SLURM_ARRAY_TASK_ID": "3"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	if s, err := ParseSpec("index/8", lookup); err != nil || s.Index != 3 || s.Count != 8 {
		t.Errorf("index/8 = %+v, %v", s, err)
	}
	for spec, want := range map[string]string{"3": "want i/n", "8/8": "not a number in 0..7", "0/0": "count", "index/2": "not a number in 0..1"} {
		env["SLURM_ARRAY_TASK_ID"] = "5"
		if _, err := ParseSpec(spec, lookup); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSpec(%q) = %v, want %q", spec, err, want)
		}
	}
}

// TestReadNamesWhereTheJSONBreaks: a shard file that is not JSON, or
// has a value of the wrong type, is refused at FILE:LINE:COL with the
// field worded in JSON's terms (it was "FILE: not a shard file: json:
// cannot unmarshal string into Go struct field Doc.seeds of type int",
// no position); a byte-order mark is skipped, as plans and scenario
// files skip it.
func TestReadNamesWhereTheJSONBreaks(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(write(t, dir, "good.json", rowShards(t, 40, 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	text := string(good)
	for _, c := range []struct {
		name, data, want string
	}{
		{"empty.json", "", "empty.json:1:1: not a shard file: unexpected end of JSON input"},
		{"cut.json", text[:len(text)/2], "cut.json:"},
		{"plan.json", "# once fault plan\nscenario x\n", "plan.json:1:1: not a shard file: invalid character '#'"},
		{"syntax.json", strings.Replace(text, "{", "{\n  x", 1), "syntax.json:2:3: not a shard file: invalid character 'x'"},
		{"type.json", strings.Replace(text, `"seeds": 40`, `"seeds": "40"`, 1), `not a shard file: seeds: string where a whole number belongs`},
		{"bom.json", "\ufeff" + text, ""},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(p)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want it read", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !regexp.MustCompile(`^`+regexp.QuoteMeta(p)+`:\d+:\d+: `).MatchString(err.Error())):
			t.Errorf("%s: %v, want %q at FILE:LINE:COL", c.name, err, c.want)
		}
	}
}

// TestSpecVarRefusesAnEmptyShard: --shard "" ran the whole batch,
// unsharded, and printed its report instead of a shard file.
func TestSpecVarRefusesAnEmptyShard(t *testing.T) {
	var spec string
	v := SpecVar(&spec)
	for _, in := range []string{"", " ", "\t"} {
		if err := v.Set(in); err == nil {
			t.Errorf("--shard %q: taken", in)
		}
	}
	if err := v.Set("index/8"); err != nil || spec != "index/8" || v.String() != "index/8" {
		t.Errorf("--shard index/8: %v, kept %q", err, spec)
	}
}
