package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/oncesim/once/sim/search"
)

// runOnce runs a command line and returns its exit code, stdout and stderr.
func runOnce(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := execute(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestExploreHelpShowsRealDefaults: a flag whose default comes from the
// scenario shows no fixed default (it used to print "(default 2)" for
// --ops whatever the scenario said), and the budgets show sim's defaults.
func TestExploreHelpShowsRealDefaults(t *testing.T) {
	cmd := newExploreCmd()
	for _, name := range []string{"semantics", "ops", "max-faults", "faults", "property"} {
		f := cmd.Flags().Lookup(name)
		if f.DefValue != "" && f.DefValue != "0" {
			t.Errorf("--%s shows default %q, but its default is the scenario's", name, f.DefValue)
		}
		if !strings.Contains(f.Usage, "(default: the ") {
			t.Errorf("--%s does not say where its default comes from: %q", name, f.Usage)
		}
	}
	help := cmd.Flags().FlagUsages()
	for _, want := range []string{
		fmt.Sprintf("(default %d)", search.DefaultMaxDepth),
		fmt.Sprintf("(default %d)", search.DefaultMaxStates),
		fmt.Sprintf("(default %q)", search.FormatBytes(search.DefaultMaxMemory)),
	} {
		if !strings.Contains(help, want) {
			t.Errorf("explore --help lacks %s:\n%s", want, help)
		}
	}
}

// TestExploreBadInput: inputs that used to run a meaningless search exit 2
// with one line naming the flag.
func TestExploreBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		// An empty list proved the fault-free run and printed HOLDS.
		{[]string{"--faults", ""}, `--faults "": an empty value`},
		{[]string{"--faults", " , "}, `--faults " , " names no fault kind`},
		// Scenario files allow [0, 20]; the flag accepted 1000.
		{[]string{"--max-faults", "1000"}, "--max-faults 1000: want a fault count in [0, 20]"},
		{[]string{"--max-faults", "-1"}, "--max-faults -1: want a fault count in [0, 20]"},
		{[]string{"--max-memory", "lots"}, `--max-memory "lots": not a size`},
		{[]string{"--max-memory", "0GiB"}, `--max-memory "0GiB": want a size in`},
		// No partial-order reduction exists: accepting "por" would claim one.
		{[]string{"--reduce", "por"}, "--reduce por: partial-order reduction is not implemented"},
		{[]string{"--reduce", "fast"}, `--reduce "fast": want none, symmetry or all`},
	}
	for _, c := range cases {
		args := append([]string{"explore", "double-billing", "--timing=false"}, c.args...)
		code, stdout, stderr := runOnce(args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

// TestExploreMaxMemory: a search that outgrows --max-memory is reported
// INCOMPLETE with the budget named and its statistics, and --check exits 3.
func TestExploreMaxMemory(t *testing.T) {
	code, stdout, stderr := runOnce("explore", "double-billing", "--semantics", "idem", "--ops", "5", "--max-faults", "6",
		"--faults", "loss,ack-loss", "--max-memory", "64KiB", "--timing=false", "--check")
	if code != exitIncomplete || !strings.Contains(stdout, "INCOMPLETE: no violation found, but the search was cut: memory budget of 64KiB exhausted") {
		t.Fatalf("exit %d, want 3 (unfinished) and an INCOMPLETE report naming the budget:\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "explored ") {
		t.Fatalf("the cut search printed no statistics:\n%s", stdout)
	}
}

// TestExploreCounterexampleJSONHasFaultList: a violation that needs no
// fault lists its faults as [] in JSON, not null.
func TestExploreCounterexampleJSONHasFaultList(t *testing.T) {
	// (missing-key-400 under alo charges a keyless POST with no fault at all;
	// key-reuse-different-payload under idem no longer does: its 422s are
	// refusals by design)
	code, stdout, stderr := runOnce("explore", "missing-key-400", "--semantics", "alo", "--max-faults", "0", "--format", "json", "--timing=false")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Params         []string `json:"params"`
		Counterexample *struct {
			Faults []string `json:"faults"`
			Steps  []string `json:"steps"`
		} `json:"counterexample"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Counterexample == nil {
		t.Fatalf("want a counterexample:\n%s", stdout)
	}
	if doc.Counterexample.Faults == nil || len(doc.Counterexample.Faults) != 0 {
		t.Fatalf(`want "faults": [] for a violation without faults:\n%s`, stdout)
	}
	if doc.Params == nil {
		t.Fatalf(`want "params": [] for a scenario without parameters:\n%s`, stdout)
	}
}

// interruptingWriter stands for a terminal whose user presses Ctrl-C as
// soon as the first progress line is drawn.
type interruptingWriter struct {
	bytes.Buffer
	interrupt chan struct{}
}

func (w *interruptingWriter) Write(p []byte) (int, error) {
	if w.interrupt != nil {
		close(w.interrupt)
		w.interrupt = nil
	}
	return w.Buffer.Write(p)
}

// TestExploreInterruptEndsTheProgressLine: Ctrl-C stops the search, the
// progress line is cleared before the report (it used to stay on screen,
// unterminated), and the report says INCOMPLETE: interrupted.
func TestExploreInterruptEndsTheProgressLine(t *testing.T) {
	stop := make(chan struct{})
	term := &interruptingWriter{interrupt: stop}
	o := &exploreOptions{interrupt: stop, progress: term, progressEvery: 1}
	cmd := exploreCommand(o)
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs([]string{"double-billing", "--ops", "3", "--max-faults", "4", "--timing=false"})
	if err := cmd.Execute(); !errors.Is(err, errIncomplete) {
		t.Fatalf("err = %v, want the unfinished exit (3): an interrupted search is unfinished, --check or not", err)
	}
	line := term.String()
	if !strings.HasPrefix(line, "\r\033[Kexploring: ") || !strings.HasSuffix(line, "\r\033[K") {
		t.Fatalf("the progress line was not ended after the interrupt: %q", line)
	}
	if !strings.Contains(stdout.String(), "INCOMPLETE: no violation found, but the search was cut: interrupted") {
		t.Fatalf("want an INCOMPLETE report:\n%s", stdout.String())
	}
}

// TestExploreReduceKeepsTheVerdict: double-billing at 4 operations and 4
// faults of loss and ack-loss holds with and without the symmetry
// reduction; the report says which reduction ran, and the reduced search
// stores fewer states.
func TestExploreReduceKeepsTheVerdict(t *testing.T) {
	states := map[string]int{}
	for _, reduce := range []string{"none", "all"} {
		out, _ := runCLI(t, exitOK, "explore", "double-billing", "--semantics", "idem", "--ops", "4", "--max-faults", "4",
			"--faults", "loss,ack-loss", "--reduce", reduce, "--timing=false", "--format", "json")
		var doc struct {
			Holds, Complete bool
			States          int
			Reduction       string
			Collapsed       int
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"none": "none", "all": "symmetry"}[reduce]
		if !doc.Holds || !doc.Complete || doc.Reduction != want || (reduce == "all") != (doc.Collapsed > 0) {
			t.Errorf("--reduce %s: holds=%v complete=%v reduction=%q collapsed=%d; want a complete proof by %q", reduce, doc.Holds, doc.Complete, doc.Reduction, doc.Collapsed, want)
		}
		states[reduce] = doc.States
	}
	if states["all"] >= states["none"] {
		t.Errorf("the symmetry reduction stored %d states, the plain search %d", states["all"], states["none"])
	}
	t.Logf("states: %v", states)
}
