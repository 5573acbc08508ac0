package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/shard"
)

// shardOuts runs `once ARGS --shard i/n` for every i and returns the
// shard files' contents.
func shardOuts(t *testing.T, n int, args ...string) []string {
	t.Helper()
	var outs []string
	for i := range n {
		out, _ := runCLI(t, exitOK, append(append([]string{}, args...), "--shard", strconv.Itoa(i)+"/"+strconv.Itoa(n))...)
		outs = append(outs, out)
	}
	return outs
}

// forge edits every shard of outs with edit and encodes it again with
// its checksum recomputed, as a careful forger would.
func forge[D any](t *testing.T, outs []string, edit func(d *D)) []string {
	t.Helper()
	var forged []string
	for _, out := range outs {
		d := new(D)
		if err := json.Unmarshal([]byte(out), d); err != nil {
			t.Fatal(err)
		}
		edit(d)
		var data []byte
		var err error
		switch d := any(d).(type) {
		case *shard.Doc:
			data, err = shard.Encode(d)
		case *shard.ExploreDoc:
			data, err = shard.Encode(d)
		}
		if err != nil {
			t.Fatal(err)
		}
		forged = append(forged, string(data))
	}
	return forged
}

// dirListing is every path under dir with its size, for "nothing written".
func dirListing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		out = append(out, p+" "+strconv.FormatInt(info.Size(), 10))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMergeReadsDataNeverCommands (hostile input, issue 35 item 1): a
// shard's arguments are the search's parameters and nothing else. A shard
// whose arguments name an output, a profile, a scenario file or help, or
// claim more seeds, operations or faults than its tallies and header, is
// refused by merge — one line naming the shard and the field, exit 2,
// nothing on stdout, no secret read into the error — and merge writes
// nothing anywhere, its own --out included. (Issue 35: each of these used
// to be obeyed.)
func TestMergeReadsDataNeverCommands(t *testing.T) {
	matrix := shardOuts(t, 2, "matrix", "double-billing", "--seeds", "20")
	sweep := shardOuts(t, 2, "sweep", "expired-dedup-ttl", "--vary", "ttl=15s:75s:30s", "--seeds", "6")
	holds := shardOuts(t, 2, "explore", "double-billing", "--semantics", "idem", "--timing=false")
	violated := shardOuts(t, 2, "explore", "double-billing", "--semantics", "alo", "--timing=false")
	secretDir := t.TempDir()
	secret := filepath.Join(secretDir, "shadow")
	if err := os.WriteFile(secret, []byte("root:SECRET-HASH:19000:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	matrixArgs := func(extra ...string) func(d *shard.Doc) {
		return func(d *shard.Doc) { d.Args = append(d.Args, extra...) }
	}
	exploreArgs := func(args ...string) func(d *shard.ExploreDoc) {
		return func(d *shard.ExploreDoc) { d.Args = args }
	}
	for _, c := range []struct {
		name   string
		shards func(dir string) []string
		want   string
	}{
		{"--out in a matrix shard", func(dir string) []string {
			return forge(t, matrix, matrixArgs("--out="+filepath.Join(dir, "pwned.txt")))
		}, "args: --out names an output file"},
		{"-o in a matrix shard", func(dir string) []string { return forge(t, matrix, matrixArgs("-o", filepath.Join(dir, "pwned.txt"))) }, "args: --out names an output file"},
		{"--cpuprofile", func(dir string) []string {
			return forge(t, matrix, matrixArgs("--cpuprofile="+filepath.Join(dir, "cpu.prof")))
		}, "args: --cpuprofile names a profile file"},
		{"--memprofile in a sweep shard", func(dir string) []string {
			return forge(t, sweep, func(d *shard.Doc) { d.Args = append(d.Args, "--memprofile="+filepath.Join(dir, "mem.prof")) })
		}, "args: --memprofile names a profile file"},
		{"--save in an explore shard", func(dir string) []string {
			return forge(t, violated, exploreArgs("double-billing", "--save="+filepath.Join(dir, "cex.plan"), "--semantics=alo", "--timing=false"))
		}, "args: --save names an output file"},
		{"-f=/etc/shadow", func(string) []string {
			return forge(t, holds, exploreArgs("-f="+secret, "--semantics=idem", "--timing=false"))
		}, "args: --file names a scenario file"},
		{"--file", func(string) []string {
			return forge(t, matrix, func(d *shard.Doc) { d.Args = []string{"--file=" + secret, "--seeds=20"} })
		}, "args: --file names a scenario file"},
		{"--help", func(string) []string { return forge(t, matrix, matrixArgs("--help")) }, "args: --help asks for help"},
		{"-h", func(string) []string { return forge(t, holds, exploreArgs("double-billing", "-h")) }, "args: --help asks for help"},
		{"--workers", func(string) []string { return forge(t, matrix, matrixArgs("--workers=100000")) }, "args: --workers says how to run"},
		{"--shard", func(string) []string { return forge(t, matrix, matrixArgs("--shard=0/1")) }, "args: --shard says which shard"},
		{"an unknown flag", func(string) []string { return forge(t, matrix, matrixArgs("--exec=sh")) }, "args: unknown flag: --exec"},
		{"an unknown scenario", func(string) []string {
			return forge(t, matrix, func(d *shard.Doc) { d.Args[0] = "/etc/shadow" })
		}, `args: unknown scenario "/etc/shadow"`},
		{"spelled otherwise than a shard records", func(string) []string {
			return forge(t, matrix, func(d *shard.Doc) { d.Args = []string{"double-billing", "--seeds", "20"} })
		}, "is not how a shard records its arguments"},
		{"a control character", func(string) []string { return forge(t, matrix, matrixArgs("--format=\x1b]0;x\a")) }, `args[2]: "--format=\x1b]0;x\a" holds a control character`},
		{"a value out of range", func(string) []string {
			return forge(t, holds, exploreArgs("double-billing", "--max-faults=-3", "--semantics=idem", "--timing=false"))
		}, "args: --max-faults -3: want a fault count"},
		{"seeds 1..1000000 for tallies of 20", func(string) []string {
			return forge(t, matrix, func(d *shard.Doc) { d.Args = []string{"double-billing", "--seeds=1000000"} })
		}, "args: --seeds 1000000, but the shards tallied 20 seeds"},
		{"1000 operations for runs of the scenario's", func(string) []string {
			return forge(t, sweep, func(d *shard.Doc) {
				d.Args = []string{"expired-dedup-ttl", "--ops=1000", "--seeds=6", "--vary=ttl=15s:75s:30s"}
			})
		}, "rows[0].ops: "},
		{"1000 operations and 20 faults for a search of 2 and 2", func(string) []string {
			return forge(t, holds, exploreArgs("double-billing", "--max-faults=20", "--ops=1000", "--semantics=idem", "--timing=false"))
		}, `search.ops: "2", but the shard's arguments give "1000"`},
		{"a search deeper than its budget", func(string) []string {
			return forge(t, holds, func(d *shard.ExploreDoc) { d.MaxDepth = d.Search.MaxDepth + 1 })
		}, "max_depth: "},
		{"a scenario file with a catalog name", func(string) []string {
			sc, _ := scenarios.Lookup("double-billing")
			return forge(t, matrix, func(d *shard.Doc) { d.ScenarioFiles = []shard.ScenarioFile{{Name: "x.yaml", Text: string(sc.Source)}} })
		}, `args: "double-billing" and a scenario file`},
		{"a scenario file that is not one", func(string) []string {
			return forge(t, matrix, func(d *shard.Doc) {
				d.Args = []string{"--seeds=20"}
				d.ScenarioFiles = []shard.ScenarioFile{{Name: "x.yaml", Text: "name: [\n"}}
			})
		}, "scenario_files[0]: x.yaml:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var files []string
			for i, s := range c.shards(dir) {
				p := filepath.Join(dir, "part"+strconv.Itoa(i)+".json")
				if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, p)
			}
			before := dirListing(t, dir)
			out := filepath.Join(dir, "report.txt")
			code, stdout, stderr := runOnce(append([]string{"merge", "--out", out}, files...)...)
			t.Log(strings.TrimSpace(stderr))
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 ||
				!strings.Contains(stderr, filepath.Join(dir, "part")) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line naming the shard with %q", code, stdout, stderr, c.want)
			}
			if strings.Contains(stderr, "SECRET") {
				t.Errorf("the error shows the named file's content: %q", stderr)
			}
			if after := dirListing(t, dir); !slices.Equal(after, before) {
				t.Errorf("merge wrote: before %v, after %v", before, after)
			}
		})
	}
}

// TestShardOfScenarioFileCarriesIt: a shard of `-f FILE` carries the
// file's text, not its path; merge loads the scenario from that text (the
// file may be gone, or another file at its path) and prints exactly the
// unsharded command's report, which names the file as the command line
// did.
func TestShardOfScenarioFileCarriesIt(t *testing.T) {
	src, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("mine.yaml", src.Source, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"matrix", "-f", "mine.yaml", "--seeds", "12"},
		{"sweep", "-f", "mine.yaml", "--vary", "ttl=1s:3s:1s", "--seeds", "6"},
		{"explore", "-f", "mine.yaml", "--semantics", "alo", "--timing=false"},
	} {
		want, _ := runCLI(t, exitOK, args...)
		outs := shardOuts(t, 2, args...)
		if err := os.WriteFile("mine.yaml", []byte("name: not-the-same\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var files []string
		for i, s := range outs {
			if strings.Contains(s, "--file") {
				t.Errorf("%v: the shard's arguments name the file:\n%s", args, s)
			}
			p := "part" + strconv.Itoa(i) + ".json"
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
		got, _ := runCLI(t, exitOK, append([]string{"merge"}, files...)...)
		if args[0] == "explore" {
			got, want = withoutCounts(got), withoutCounts(want)
		}
		if got != want {
			t.Errorf("%v: merged differs from unsharded:\n%s", args, firstDiff(got, want))
		}
		if err := os.WriteFile("mine.yaml", src.Source, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestShardFlagsClassified: every flag of matrix, sweep and explore is a
// search parameter (recorded in a shard, accepted by merge) or one merge
// refuses with its reason, never both: a new flag must be put in one.
func TestShardFlagsClassified(t *testing.T) {
	for name, newCmd := range map[string]func() *cobra.Command{"matrix": newMatrixCmd, "sweep": newSweepCmd, "explore": newExploreCmd} {
		cmd := newCmd()
		cmd.InitDefaultHelpFlag()
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			param, refused := shard.IsParam(f.Name)
			if param == (refused != "") {
				t.Errorf("%s --%s: a search parameter %v, refused %q: want exactly one", name, f.Name, param, refused)
			}
		})
	}
}
