package scenarios_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/oncesim/once/internal/golden"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// TestCanonicalTraces pins, for every scenario of the catalog, the
// canonical schedule of its lesson as a trace, in testdata/traces/NAME.txt:
//
//	canonical semantics=S      (block input: name=value parameters, one a line)
//
// explores the scenario (its explore defaults: operations, fault kinds,
// fault bound, property) and prints the first counterexample shrunk to its
// minimal faults — the schedule that shows the bug — or, when none exists
// within the bound, the proof and the fault-free trace. Exploration is
// deterministic, so the scripts are stable; refresh them with
//
//	make update ONLY=traces      (or ONLY=NAME for one scenario's)
//
// and read the diff: it is the lesson, event by event. A scenario without
// a script gets one written from its expectations, then filled in.
func TestCanonicalTraces(t *testing.T) {
	dir := filepath.Join("..", "testdata", "traces")
	rewrite := golden.RewriteFlag("rewrite")
	for _, sc := range scenarios.All() {
		file := filepath.Join(dir, sc.Name+".txt")
		if _, err := os.Stat(file); err != nil {
			if !golden.Rewrite(rewrite, "traces", sc.Name) {
				t.Errorf("%s has no canonical trace script %s (make update ONLY=%s writes one)", sc.Name, file, sc.Name)
				continue
			}
			generateTraceScript(t, sc, file)
		}
		golden.Narrow(t, sc.Name, "rewrite", "traces", sc.Name, func(t *testing.T) { canonicalTrace(t, sc, file) })
	}
}

// canonicalTrace runs one scenario's script of canonical blocks.
func canonicalTrace(t *testing.T, sc *scenarios.Scenario, file string) {
	datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "canonical" {
			t.Fatalf("%s: unknown directive %q", d.Pos, d.Cmd)
		}
		var semName, show string
		d.ScanArgs(t, "semantics", &semName)
		if d.HasArg("show") {
			d.ScanArgs(t, "show", &show)
		}
		sem, err := sim.ParseSemantics(semName)
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
				params[k] = v
			}
		}
		return canonical(t, sc, sem, params, show)
	})
}

func canonical(t *testing.T, sc *scenarios.Scenario, sem sim.Semantics, params map[string]string, show string) string {
	d := sc.ExploreDefaults
	faults, kinds, err := sc.ExploreFaults(d.Faults)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: d.Ops, Faults: faults, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	promise := sim.ExactlyOne
	if d.Property == "promise" {
		promise = sem.Promise()
	}
	res, err := search.Explore(cfg, search.Options{MaxFaults: d.MaxFaults, MaxPreemptions: d.MaxPreemptions, Promise: promise, MaxStates: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "explore: %d ops, ≤ %d faults of %s", d.Ops, d.MaxFaults, strings.Join(kinds, ","))
	if d.MaxPreemptions > 0 {
		fmt.Fprintf(&b, ", ≤ %d preemptions", d.MaxPreemptions)
	}
	fmt.Fprintf(&b, ", property %s\n", d.Property)
	if res.Holds && show != "" {
		// A bug that needs time (a TTL, a replay horizon) or more
		// operations than the exhaustive bound: the first seed of the
		// scenario's own settings that shows it, shrunk.
		fmt.Fprintf(&b, "holds within the bound (%d distinct states); the bug needs the scenario's own timing and load:\n", res.States)
		return b.String() + seeded(t, sc, sem, params, show)
	}
	var plan []sim.Fault
	if res.Holds {
		if res.Complete {
			fmt.Fprintf(&b, "holds: no schedule breaks it (%d distinct states); the fault-free run:\n", res.States)
		} else {
			fmt.Fprintf(&b, "no counterexample within the search budget (%d states); the fault-free run:\n", res.States)
		}
	} else {
		plan = shrunk(t, cfg, promise, res)
		fmt.Fprintf(&b, "counterexample with %d fault(s):\n", len(plan))
		for _, f := range plan {
			fmt.Fprintf(&b, "  %s\n", scenarios.FaultLine(cfg.Topology, f))
		}
	}
	trace := &sim.Trace{}
	_, end, err := search.Violates(cfg, promise, plan, nil, trace)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteTimeline(&b, cfg.Topology, trace.Events); err != nil {
		t.Fatal(err)
	}
	status, why := end.JudgeAgainst(promise)
	o := end.Outcome()
	fmt.Fprintf(&b, "verdicts:")
	for _, op := range o.Ops {
		fmt.Fprintf(&b, " %s=%s", op.Op, op.Verdict)
	}
	fmt.Fprintf(&b, "\n%s", status)
	if why != "" {
		fmt.Fprintf(&b, ": %s", why)
	}
	b.WriteString("\n")
	return b.String()
}

// generateTraceScripts writes a starting script for each scenario without
// one: its story as prose, then one canonical block per expectation row
// that declares a bug (dup, lost, violation), and one for the first row
// with the default parameters.
func generateTraceScript(t *testing.T, sc *scenarios.Scenario, file string) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — %s\n#\n", sc.Name, sc.Summary)
	for _, line := range strings.Split(sc.Lesson.Story, "\n") {
		fmt.Fprintf(&b, "# %s\n", strings.TrimSpace(line))
	}
	seen := map[string]bool{}
	for _, e := range sc.Expect {
		bug := false
		for _, c := range e.Claims {
			bug = bug || c == scenarios.ClaimDuplicates || c == scenarios.ClaimLosses || c == scenarios.ClaimViolation
		}
		plain := len(e.Params) == 0 && e.Faults == nil && e.Ops == 0
		if !bug && !plain {
			continue
		}
		key := e.Label()
		if seen[key] {
			continue
		}
		seen[key] = true
		fmt.Fprintf(&b, "\n# %s: %s", e.Label(), e.ClaimsString())
		if e.Note != "" {
			fmt.Fprintf(&b, " — %s", e.Note)
		}
		show := ""
		for _, c := range e.Claims {
			switch c {
			case scenarios.ClaimDuplicates:
				show = " show=dup"
			case scenarios.ClaimLosses:
				show = " show=lost"
			case scenarios.ClaimViolation:
				show = " show=violation"
			}
		}
		fmt.Fprintf(&b, "\ncanonical semantics=%s%s\n", e.Semantics.Alias(), show)
		keys := make([]string, 0, len(e.Params))
		for k := range e.Params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%s\n", k, e.Params[k])
		}
		b.WriteString("----\n")
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// seeded finds the first seed whose run shows claim (dup, lost,
// never-completes, violation) under the scenario's default settings plus params, shrinks
// its faults (jitter still from that seed) and prints the shrunk run.
func seeded(t *testing.T, sc *scenarios.Scenario, sem sim.Semantics, params map[string]string, claim string) string {
	set := scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults, Params: params}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	shows := func(o *sim.Outcome) bool {
		switch claim {
		case "dup":
			return o.Count(sim.Duplicated) > 0
		case "lost":
			return o.Finished() && o.Count(sim.Lost) > 0
		case "never-completes":
			return o.Finished() && o.RunOutcome().Count(sim.OpNeverCompletes) > 0
		case "violation":
			for _, inv := range o.Invariants {
				if inv.Violation != "" {
					return true
				}
			}
		}
		return false
	}
	run := func(seed uint64, ch sim.Chooser, rec sim.Recorder) *sim.Outcome {
		w, err := sim.NewWorld(cfg, ch, rec)
		if err != nil {
			t.Fatal(err)
		}
		return w.Run()
	}
	for seed := uint64(1); seed <= 1000; seed++ {
		rec := sim.NewRecording(sim.NewRandom(seed))
		if !shows(run(seed, rec, nil)) {
			continue
		}
		replay := func(plan []sim.Fault, tr sim.Recorder) *sim.Outcome {
			return run(seed, sim.NewScripted(plan, sim.NewJitter(seed)), tr)
		}
		plan := search.Shrink(rec.Faults, func(p []sim.Fault) bool { return shows(replay(p, nil)) })
		var b bytes.Buffer
		fmt.Fprintf(&b, "seed %d shows %s with %d ops; its %d faults shrunk to %d:\n", seed, claim, set.Ops, len(rec.Faults), len(plan))
		for _, f := range plan {
			fmt.Fprintf(&b, "  %s\n", scenarios.FaultLine(cfg.Topology, f))
		}
		trace := &sim.Trace{}
		o := replay(plan, trace)
		if err := report.WriteTimeline(&b, cfg.Topology, trace.Events); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "verdicts:")
		for _, op := range o.Ops {
			fmt.Fprintf(&b, " %s=%s", op.Op, op.Verdict)
		}
		fmt.Fprintf(&b, "\n%s", o.Status)
		if o.Why != "" {
			fmt.Fprintf(&b, ": %s", o.Why)
		}
		b.WriteString("\n")
		return b.String()
	}
	t.Fatalf("no seed in 1..1000 shows %s", claim)
	return ""
}

// TestGoldenOnly: make update runs it first, so that ONLY= naming neither
// a catalog scenario nor a family of golden files stops the update in one
// line instead of rewriting nothing.
func TestGoldenOnly(t *testing.T) {
	var names []string
	for _, sc := range scenarios.All() {
		names = append(names, sc.Name)
	}
	if err := golden.Check(names); err != nil {
		t.Fatal(err)
	}
}
