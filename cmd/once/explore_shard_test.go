package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/shard"
)

// heavyExplores are the catalog scenarios whose own explore bounds take
// seconds: the test searches them with one fault.
var heavyExplores = map[string]bool{
	"flink-2pc-sink": true, "flink-failure-recovery": true, "kafka-eos-happy-path": true, "transaction-abort": true,
}

// withoutCounts drops what a merged explore report may say differently
// from the unsharded one: the line of counts (summed over the shards), the
// count of revisits under another naming on the reduction's line (summed
// too) and the note saying so.
func withoutCounts(report string) string {
	var keep []string
	for _, l := range strings.Split(report, "\n") {
		if strings.HasPrefix(l, "explored ") || strings.HasPrefix(l, "merged from ") {
			continue
		}
		keep = append(keep, collapsedCount.ReplaceAllString(l, "N $1"))
	}
	return strings.Join(keep, "\n")
}

// collapsedCount is the count on the symmetry reduction's line.
var collapsedCount = regexp.MustCompile(`\b\d+ (revisits arrived under another naming)`)

// TestShardedExploreEqualsUnsharded: over the whole catalog (each
// scenario's own explore bounds; one fault for the four whose bounds take
// seconds), an explore split into 1, 2, 3 and 7 shards and merged prints
// the unsharded verdict and counterexample — the same text, cause, faults,
// steps and replay line — and one shard the same counts too. Both verdicts
// occur, and every shard runs with another number of workers.
func TestShardedExploreEqualsUnsharded(t *testing.T) {
	verdicts := map[string]int{}
	for _, sc := range scenarios.All() {
		name := sc.Name
		args := []string{"explore", name, "--timing=false"}
		if heavyExplores[name] {
			args = append(args, "--max-faults", "1")
		}
		want, _ := runCLI(t, exitOK, args...)
		switch {
		case strings.Contains(want, "\nHOLDS:"):
			verdicts["holds"]++
		case strings.Contains(want, "\nCOUNTEREXAMPLE:"):
			verdicts["violated"]++
		default:
			t.Fatalf("%s: neither a proof nor a counterexample:\n%s", name, want)
		}
		for _, n := range []int{1, 2, 3, 7} {
			got := shardThenMerge(t, n, args...)
			note := "merged from " + strconv.Itoa(n) + " shards: " + shard.CountsNote + "\n"
			if n == 1 {
				note = "merged from 1 shard: " + shard.CountsNote + "\n"
			}
			if !strings.HasSuffix(got, note) {
				t.Errorf("%s in %d shards: no note on the summed counts:\n%s", name, n, got)
			}
			if n == 1 {
				if got = strings.TrimSuffix(got, note); got != want {
					t.Errorf("%s in one shard, merged, differs from unsharded:\n%s", name, firstDiff(got, want))
				}
				continue
			}
			if g, w := withoutCounts(got), withoutCounts(want); g != w {
				t.Errorf("%s in %d shards, merged, differs from unsharded:\n%s", name, n, firstDiff(g, w))
			}
		}
	}
	if verdicts["holds"] == 0 || verdicts["violated"] == 0 {
		t.Errorf("verdicts over the catalog: %v, want both", verdicts)
	}
}

// TestShardedExploreJSONAndCheck: in JSON the merged report is the
// unsharded document (counts aside) with the number of shards; --check
// travels in the shards' arguments, so merge exits 1 on a counterexample
// while the shards exit 0.
func TestShardedExploreJSONAndCheck(t *testing.T) {
	args := []string{"explore", "double-billing", "--semantics", "alo", "--timing=false", "--format", "json", "--check"}
	want, _ := runCLI(t, exitViolation, args...)
	dir := t.TempDir()
	var files []string
	for i := range 3 {
		out, _ := runCLI(t, exitOK, append(args, "--shard", strconv.Itoa(i)+"/3")...)
		f := filepath.Join(dir, strconv.Itoa(i)+".json")
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	got, _ := runCLI(t, exitViolation, append([]string{"merge"}, files...)...)
	var g, w map[string]any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("merged JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if g["shards"] != 3.0 || g["counts"] != shard.CountsNote || w["counterexample"] == nil {
		t.Errorf("merged JSON: shards %v, counts %v; unsharded counterexample %v", g["shards"], g["counts"], w["counterexample"])
	}
	for _, k := range []string{"shards", "counts", "states", "schedules", "transitions", "revisits", "max_depth", "memory_bytes", "collapsed"} {
		delete(g, k)
		delete(w, k)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("merged JSON, counts aside, differs from unsharded:\n%s\nwant\n%s", got, want)
	}
}

// TestMergeRejectsExploreShards: a shard missing, a shard twice, shards of
// two different searches or of explore and matrix, a shard that will not
// do, each is one line and exit 2.
func TestMergeRejectsExploreShards(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, args ...string) string {
		out, _ := runCLI(t, exitOK, args...)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a0 := write("a0", "explore", "two-generals", "--shard", "0/2")
	a1 := write("a1", "explore", "two-generals", "--shard", "1/2")
	b1 := write("b1", "explore", "two-generals", "--max-faults", "2", "--shard", "1/2")
	m1 := write("m1", "matrix", "two-generals", "--seeds", "4", "--shard", "1/2")
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte(`{"schema": "once.shard/v3", "command": "explore", "args": [], "index": 0, "count": 1, "holds": true, "complete": true, "choices": [1]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	extra := filepath.Join(dir, "extra")
	if err := os.WriteFile(extra, []byte(`{"schema": "once.shard/v3", "command": "explore", "seeds": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{a0}, "1 of 2 shards given; missing 1"},
		{[]string{a1, a1}, "both are shard 1/2"},
		{[]string{a0, b1}, "b1: shard of `explore two-generals --max-faults=2`"},
		{[]string{a0, m1}, "m1: shard of `matrix two-generals --seeds=4`"},
		{[]string{bad}, "bad: checksum: missing"},
		{[]string{extra}, "not an explore shard file"},
	} {
		_, stderr := runCLI(t, exitUsage, append([]string{"merge"}, c.files...)...)
		if !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("merge %v: stderr %q, want one line with %q", c.files, stderr, c.want)
		}
	}
	if _, stderr := runCLI(t, exitUsage, "explore", "two-generals", "--shard", "0/2", "--save", filepath.Join(dir, "x.plan")); !strings.Contains(stderr, "--save") {
		t.Errorf("explore --shard --save: stderr %q", stderr)
	}
	runCLI(t, exitOK, "merge", a1, a0)
}
