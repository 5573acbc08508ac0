package main

import (
	"io"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/plans"
	"github.com/oncesim/once/sim"
)

// Thin forwards to package runs, for the commands that still call them
// by their old names (lab, live, explore).

func replayCommand(sc *scenarios.Scenario, sem sim.Semantics, seed uint64, set scenarios.Settings) string {
	return runs.Command(sc, sem, seed, set)
}

// faultChange is one fault setting that differs from a baseline.
type faultChange struct{ name, value string }

func faultChanges(base, f scenarios.Faults) []faultChange {
	var out []faultChange
	for _, c := range runs.FaultChanges(base, f) {
		out = append(out, faultChange{c.Name, c.Value})
	}
	return out
}

func budgetFlags(set scenarios.Settings) string    { return runs.BudgetFlags(set) }
func sortedSets(params map[string]string) []string { return runs.SortedSets(params) }

// simulated is one finished run (see runs.Run).
type simulated struct {
	cfg     *sim.Config
	outcome *sim.Outcome
	trace   *sim.Trace
	faults  []sim.Fault
	replay  string
	shrunk  *report.Counterexample
}

func asRuns(rs []simulated) []runs.Run {
	out := make([]runs.Run, len(rs))
	for i, r := range rs {
		out[i] = runs.Run{Config: r.cfg, Outcome: r.outcome, Trace: r.trace, Faults: r.faults, Replay: r.replay, Shrunk: r.shrunk}
	}
	return out
}

func render(w io.Writer, format string, sc *scenarios.Scenario, seed uint64, set scenarios.Settings, rs []simulated, _ []report.Run) error {
	return runs.Render(w, format, sc, seed, set, asRuns(rs), nil)
}

func checkRuns(check bool, rs []simulated) error {
	if check && !runs.Check(asRuns(rs)) {
		return errViolation
	}
	return nil
}

func planPath(file string, sem sim.Semantics, n int) string { return plans.Path(file, sem, n) }

func savePlans(file string, sc *scenarios.Scenario, seed uint64, set scenarios.Settings, rs []simulated, stderr io.Writer) error {
	return savePlanFiles(file, sc, seed, set, asRuns(rs), stderr)
}
