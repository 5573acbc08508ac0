package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/tui"
)

// tuiStartOf parses a `once tui` command line as the command does and
// returns where the explorer would start, without a terminal.
func tuiStartOf(t *testing.T, args ...string) (tui.Options, error) {
	t.Helper()
	o := &tuiOptions{}
	cmd := tuiCommand(o)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatalf("once tui %s: %v", strings.Join(args, " "), err)
	}
	rest := cmd.Flags().Args()
	if err := cmd.Args(cmd, rest); err != nil {
		return tui.Options{}, err
	}
	return tuiStart(o, rest)
}

// TestTUIFlagsReachTheFirstRun: -f, --set, the fault flags, --seed,
// --semantics and --ops all reach the explorer's first run.
func TestTUIFlagsReachTheFirstRun(t *testing.T) {
	opts, err := tuiStartOf(t, "outbox", "--semantics", "idem", "--set", "write=publish-then-commit",
		"--crash", "0.4", "--seed", "7", "--ops", "3")
	if err != nil {
		t.Fatal(err)
	}
	if opts.Start == nil || opts.Start.Name != "outbox" || opts.Semantics != sim.Idempotent ||
		opts.Seed != 7 || opts.Ops != 3 || !opts.Headline {
		t.Fatalf("start %+v", opts)
	}
	if opts.Params["write"] != "publish-then-commit" {
		t.Errorf("--set did not reach the first run: params %v", opts.Params)
	}
	crash, _ := sim.ParseFaultKind("crash")
	if opts.Faults == nil || opts.Faults.Probability[crash] != 0.4 {
		t.Errorf("--crash 0.4 did not reach the first run: %+v", opts.Faults)
	}
	if opts.Faults.Probability[0] != opts.Start.Faults.Probability[0] {
		t.Errorf("a fault flag changed another kind's probability: %+v", opts.Faults)
	}

	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "scenarios", "catalog", "double-billing.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "name: double-billing", "name: my-billing", 1))
	file := filepath.Join(dir, "my.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	opts, err = tuiStartOf(t, "-f", file)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Start == nil || opts.Start.Name != "my-billing" || opts.Faults != nil || opts.Params != nil {
		t.Fatalf("-f: start %+v", opts)
	}
}

// TestTUIBadFlags: a bad --set, a fault flag without a scenario and an
// --ops the explorer cannot show are the user's errors.
func TestTUIBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"outbox", "--set", "write=sideways"}, "write"},
		{[]string{"outbox", "--set", "nonsense"}, "nonsense"},
		{[]string{"--set", "write=publish-then-commit"}, "--set: name a SCENARIO"},
		{[]string{"--crash", "0.2"}, "--crash: name a SCENARIO"},
		{[]string{"double-billing", "--loss", "2"}, "--loss 2"},
		{[]string{"double-billing", "--ops", "100"}, "--ops 100"},
		{[]string{"double-billing", "--semantics", "txn"}, "does not support"},
	} {
		_, err := tuiStartOf(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("once tui %s: error %v, want one naming %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}
