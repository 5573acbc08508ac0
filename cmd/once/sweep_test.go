package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sweep"
)

// TestSweepIntParameter sweeps an integer parameter of another scenario.
func TestSweepIntParameter(t *testing.T) {
	sc, err := scenarios.Lookup("two-generals")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sweep.ParseVary("rounds=1:5:2", sc); err != nil {
		t.Fatal(err)
	}
	out, _ := runCLI(t, exitOK, "sweep", "two-generals", "--vary", "rounds=1:5:2", "--seeds", "10", "--format", "json")
	for _, v := range []string{`"value": "1"`, `"value": "3"`, `"value": "5"`, `"kind": "int"`} {
		if !strings.Contains(out, v) {
			t.Errorf("sweep JSON lacks %s:\n%s", v, out)
		}
	}
	_, stderr := runCLI(t, exitUsage, "sweep", "two-generals", "--vary", "rounds=1:5:0.5")
	if !strings.Contains(stderr, `step: "0.5" is not an integer`) {
		t.Errorf("stderr %q", stderr)
	}
}

// TestSweepPointMetrics: metrics are averaged per run, in the order the
// scenario declares them.
func TestSweepPointMetrics(t *testing.T) {
	tl := scenarios.Tally{Runs: 4, Finished: 4, WithDup: 1, Ops: 8, Effects: 9, Metrics: make([]scenarios.ExactSum, 2)}
	tl.Metrics[0].Add(2)
	tl.Metrics[1].Add(7)
	p := report.NewSweepPoint("1s", 1000, &tl, []string{"backlog", "late"})
	if p.Metrics["backlog"] != 0.5 || p.Metrics["late"] != 1.75 {
		t.Errorf("metrics %v, want backlog 0.5, late 1.75", p.Metrics)
	}
	if p.DuplicatedRate != 0.25 || p.EffectsPerOp != 1.125 {
		t.Errorf("duplicated %v, effects/op %v", p.DuplicatedRate, p.EffectsPerOp)
	}
}

// TestPlanFromScenarioFile: a plan saved from a file-based run names the
// file relative to the plan, with its hash, so the pair can move together
// and replay from any working directory. A scenario file outside the
// plan's directory cannot be named by the plan (replay would refuse a
// ".."): saving says so, and replay takes the file with -f.
func TestPlanFromScenarioFile(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../scenarios/catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "name: double-billing", "name: my-billing", 1))
	for _, d := range []string{"scenarios", "plans"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "scenarios", "my.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "-f", file, "--semantics", "alo", "--seed", "3", "--format", "json", "--save"}
	if _, stderr := runCLI(t, exitUsage, append(args, filepath.Join(dir, "plans", "p.plan"))...); !strings.Contains(stderr, "outside the plan's directory") {
		t.Errorf("a plan in a sibling directory: stderr %q", stderr)
	}
	plan := filepath.Join(dir, "p.plan")
	run, _ := runCLI(t, exitOK, append(args, plan)...)
	saved, err := os.ReadFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(saved), "\nfile scenarios/my.yaml sha256:") {
		t.Fatalf("the plan does not name the scenario file relative to itself, with its hash:\n%s", saved)
	}
	t.Chdir(filepath.Join(dir, "scenarios"))
	replayed, _ := runCLI(t, exitOK, "replay", "../p.plan", "--format", "json")
	moved := filepath.Join(dir, "plans", "p.plan")
	if err := os.Rename(plan, moved); err != nil {
		t.Fatal(err)
	}
	runCLI(t, exitUsage, "replay", moved)
	withF, _ := runCLI(t, exitOK, "replay", moved, "-f", "my.yaml", "--format", "json")
	digest := func(s string) string {
		i := strings.Index(s, `"trace_digest"`)
		if i < 0 {
			t.Fatalf("no digest in %s", s)
		}
		return s[i : i+40]
	}
	if digest(run) != digest(replayed) || digest(run) != digest(withF) {
		t.Errorf("replay digests %s and %s (-f), run %s", digest(replayed), digest(withF), digest(run))
	}
}

// TestSweepHelpShowsNoFixedSemantics: --semantics's default is the
// scenario's (idem, or its first), and --help printed both that and
// (default "idem"), which is wrong for a scenario without idem.
func TestSweepHelpShowsNoFixedSemantics(t *testing.T) {
	f := newSweepCmd().Flags().Lookup("semantics")
	if f.DefValue != "" || !strings.Contains(f.Usage, "(default: idem, or the scenario's first)") {
		t.Errorf("sweep --semantics: default %q, usage %q", f.DefValue, f.Usage)
	}
}
