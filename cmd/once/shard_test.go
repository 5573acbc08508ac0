package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/shard"
)

// shardThenMerge runs `once ARGS --shard i/n` for every i, writes each
// shard's output to a file, merges them in reverse order and returns
// merge's stdout.
func shardThenMerge(t *testing.T, n int, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i := n - 1; i >= 0; i-- {
		out, _ := runCLI(t, exitOK, append(append([]string{}, args...), "--shard", strconv.Itoa(i)+"/"+strconv.Itoa(n), "--workers", strconv.Itoa(1+i%3))...)
		f := filepath.Join(dir, "part"+strconv.Itoa(i)+".json")
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	out, _ := runCLI(t, exitOK, append([]string{"merge"}, files...)...)
	return out
}

// TestShardedMatrixEqualsUnsharded: over the whole catalog, the shards of
// a matrix merged print exactly the bytes of the matrix run in one piece,
// for 1, 2, 3 and 7 shards (37 seeds: shards of unequal size, and 7
// shards of 5 or 6 seeds cut the chunks of 16 apart).
func TestShardedMatrixEqualsUnsharded(t *testing.T) {
	for _, format := range []string{"text", "json", "md"} {
		args := []string{"matrix", "--seeds", "37", "--format", format}
		want, _ := runCLI(t, exitOK, args...)
		ns := []int{1, 2, 3, 7}
		if format != "text" {
			ns = []int{3}
		}
		for _, n := range ns {
			if got := shardThenMerge(t, n, args...); got != want {
				t.Errorf("matrix --format %s in %d shards, merged, differs from unsharded:\n%s", format, n, firstDiff(got, want))
			}
		}
	}
}

// TestShardedSweepEqualsUnsharded: the same for a sweep, metrics (exact
// sums of floats) included.
func TestShardedSweepEqualsUnsharded(t *testing.T) {
	for _, format := range []string{"text", "json", "svg"} {
		args := []string{"sweep", "expired-dedup-ttl", "--vary", "ttl=15s:75s:30s", "--seeds", "37", "--format", format}
		want, _ := runCLI(t, exitOK, args...)
		for _, n := range []int{2, 7} {
			if got := shardThenMerge(t, n, args...); got != want {
				t.Errorf("sweep --format %s in %d shards, merged, differs:\n%s", format, n, firstDiff(got, want))
			}
		}
	}
}

// TestMergedCheckExitCode: --check travels in the shards' arguments, so
// the merge exits as the unsharded matrix does (3: here every run is cut
// by a tiny event budget, so every expectation is unknown), while a shard
// itself only writes its tallies and exits 0.
func TestMergedCheckExitCode(t *testing.T) {
	args := []string{"matrix", "double-billing", "--seeds", "6", "--max-events", "5", "--check"}
	want, _ := runCLI(t, exitIncomplete, args...)
	dir := t.TempDir()
	var files []string
	for i := range 2 {
		out, _ := runCLI(t, exitOK, append(args, "--shard", strconv.Itoa(i)+"/2")...)
		f := filepath.Join(dir, strconv.Itoa(i))
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	got, _ := runCLI(t, exitIncomplete, append([]string{"merge"}, files...)...)
	if got != want {
		t.Errorf("merged report differs:\n%s", firstDiff(got, want))
	}
}

// TestMergeRejects: every way a set of shard files can be wrong is one
// line and exit 2.
func TestMergeRejects(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	shard := func(seeds string, i, n int) string {
		out, _ := runCLI(t, exitOK, "matrix", "double-billing", "--seeds", seeds, "--shard", strconv.Itoa(i)+"/"+strconv.Itoa(n))
		return out
	}
	a0 := write("a0", shard("20", 0, 2))
	b1 := write("b1", shard("21", 1, 2))
	junk := write("junk", "{\"schema\": \"once.shard/v3\", \"oops\": 1}")
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{a0}, "1 of 2 shards given; missing 1"},
		{[]string{a0, a0}, "both are shard 0/2"},
		{[]string{a0, b1}, "b1: shard of `matrix double-billing --seeds=21`"},
		{[]string{junk}, "not a shard file"},
		{[]string{filepath.Join(dir, "absent")}, "absent"},
	} {
		_, stderr := runCLI(t, exitUsage, append([]string{"merge"}, c.files...)...)
		if !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("merge %v: stderr %q, want one line with %q", c.files, stderr, c.want)
		}
	}
	if got, want := shardThenMerge(t, 2, "matrix", "double-billing", "--seeds", "20"), mustRun(t, "matrix", "double-billing", "--seeds", "20"); got != want {
		t.Error("a good pair did not merge to the unsharded output")
	}
	unsetShardEnv(t)
	for _, bad := range []string{"2/2", "x/2", "1/0", "1", "-1/3", "index/4"} {
		_, stderr := runCLI(t, exitUsage, "matrix", "double-billing", "--seeds", "5", "--shard", bad)
		if !strings.Contains(stderr, "--shard "+bad) {
			t.Errorf("--shard %s: stderr %q", bad, stderr)
		}
	}
}

// TestShardIndexFromEnvironment: "index/n" takes the index of a
// Kubernetes Indexed Job or a Slurm array task.
func TestShardIndexFromEnvironment(t *testing.T) {
	want, _ := runCLI(t, exitOK, "matrix", "double-billing", "--seeds", "9", "--shard", "1/3")
	unsetShardEnv(t)
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	got, _ := runCLI(t, exitOK, "matrix", "double-billing", "--seeds", "9", "--shard", "index/3")
	if got != want {
		t.Error("--shard index/3 with JOB_COMPLETION_INDEX=1 differs from --shard 1/3")
	}
	unsetShardEnv(t)
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	got, _ = runCLI(t, exitOK, "matrix", "double-billing", "--seeds", "9", "--shard", "index/3")
	if got != want {
		t.Error("--shard index/3 with SLURM_ARRAY_TASK_ID=1 differs from --shard 1/3")
	}
}

// unsetShardEnv clears the variables --shard index/n reads, for this test.
func unsetShardEnv(t *testing.T) {
	for _, v := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
		t.Setenv(v, "") // restores the old value after the test
		os.Unsetenv(v)
	}
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, _ := runCLI(t, exitOK, args...)
	return out
}

// firstDiff shows the first line where two outputs differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + a + "\n want " + b
		}
	}
	return "(same lines)"
}

// TestShardOutFilesAndMergeDirectory: --out with {shard} names each
// shard's file without a shell, merge takes the directory, and its own
// --out writes the report.
func TestShardOutFilesAndMergeDirectory(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	if err := os.Mkdir(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		out, _ := runCLI(t, exitOK, "matrix", "double-billing", "--seeds", "20", "--shard", strconv.Itoa(i)+"/3",
			"--out", filepath.Join(shards, "part-{shard}.json"))
		if out != "" {
			t.Fatalf("with --out, stdout %q", out)
		}
	}
	report := filepath.Join(dir, "report.txt")
	runCLI(t, exitOK, "merge", shards, "--out", report)
	got, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if want := mustRun(t, "matrix", "double-billing", "--seeds", "20"); string(got) != want {
		t.Errorf("merged directory differs:\n%s", firstDiff(string(got), want))
	}
	// Nothing half-written: a bad run leaves no file, and {shard} without
	// --shard is an error.
	_, stderr := runCLI(t, exitUsage, "matrix", "double-billing", "--out", filepath.Join(dir, "x-{shard}.json"))
	if !strings.Contains(stderr, "{shard} is the shard's index") {
		t.Errorf("stderr %q", stderr)
	}
	runCLI(t, exitUsage, "matrix", "no-such-scenario", "--out", filepath.Join(dir, "bad.txt"))
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files left in the directory: %v, want shards and report.txt", names)
	}
}

// TestMergeRefusesTamperedShards: a shard whose count was edited, or an
// explore shard whose counterexample was edited (checksums recomputed, as
// a careful forger would), is refused by merge with one line naming the
// shard and the field, exit 2, and nothing on stdout.
func TestMergeRefusesTamperedShards(t *testing.T) {
	dir := t.TempDir()
	save := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	m0, _ := runCLI(t, exitOK, "matrix", "double-billing", "--seeds", "10", "--shard", "0/2")
	m1, _ := runCLI(t, exitOK, "matrix", "double-billing", "--seeds", "10", "--shard", "1/2")
	var doc shard.Doc
	if err := json.Unmarshal([]byte(m1), &doc); err != nil {
		t.Fatal(err)
	}
	doc.Rows[0].WithDup = 999999
	forged, err := shard.Encode(&doc)
	if err != nil {
		t.Fatal(err)
	}
	e0, _ := runCLI(t, exitOK, "explore", "double-billing", "--semantics", "alo", "--shard", "0/2")
	e1, _ := runCLI(t, exitOK, "explore", "double-billing", "--semantics", "alo", "--shard", "1/2")
	var x shard.ExploreDoc
	if err := json.Unmarshal([]byte(e1), &x); err != nil {
		t.Fatal(err)
	}
	// The first counterexample in canonical order is the one reported: an
	// empty path, "a violation with no fault at all".
	x.Holds, x.Choices = false, []int{}
	forgedX, err := shard.Encode(&x)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{save("m0.json", m0), save("m1.json", string(forged))}, "m1.json: rows[0].runs_with_duplicated: 999999 is more than"},
		{[]string{save("m0.json", m0), save("m1b.json", strings.Replace(m1, `"runs": 5`, `"runs": 6`, 1))}, "m1b.json: checksum: "},
		{[]string{save("e0.json", e0), save("e1.json", string(forgedX))}, "e1.json: choices: the counterexample does not violate"},
	} {
		stdout, stderr := runCLI(t, exitUsage, append([]string{"merge"}, c.files...)...)
		if stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("merge %v: stdout %q, stderr %q, want one line with %q", c.files, stdout, stderr, c.want)
		}
	}
}

// TestShardFilesReadableByOthers: --out writes a shard 0644, not 0600.
func TestShardFilesReadableByOthers(t *testing.T) {
	p := filepath.Join(t.TempDir(), "part.json")
	runCLI(t, exitOK, "matrix", "double-billing", "--seeds", "4", "--shard", "0/2", "--out", p)
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("shard file mode %v, want 0644", st.Mode().Perm())
	}
}
