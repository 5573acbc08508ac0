package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// faultChange is one fault setting that differs from a baseline.
type faultChange struct {
	name  string // as the flag and --vary spell it
	value string // as the flag takes it
}

// faultChanges lists the fault settings of f (probabilities and
// durations, in the order of sim.FaultKinds) that differ from base.
func faultChanges(base, f scenarios.Faults) []faultChange {
	var out []faultChange
	for _, name := range sim.FaultSettingNames() {
		if v := f.Format(name); v != base.Format(name) {
			out = append(out, faultChange{name, v})
		}
	}
	return out
}

// replayCommand is the exact command line that reproduces one run: the
// scenario (its catalog name or -f FILE), the semantics and seed, the
// operation count, every fault probability unlike the scenario's, every
// parameter set (sorted) and the budgets set on the command line. A
// scenario file's own defaults and budgets come back with the file.
func replayCommand(sc *scenarios.Scenario, sem sim.Semantics, seed uint64, set scenarios.Settings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "once run %s --semantics %s --seed %d --ops %d", scenarioRef(sc), sem.Alias(), seed, set.Ops)
	for _, f := range faultChanges(sc.Faults, set.Faults) {
		fmt.Fprintf(&b, " --%s %s", f.name, f.value)
	}
	for _, kv := range sortedSets(set.Params) {
		fmt.Fprintf(&b, " --set %s", kv)
	}
	b.WriteString(budgetFlags(set))
	return b.String()
}

// budgetFlags spells the budgets set on the command line (none: the
// scenario's or the engine's defaults, which need no flag).
func budgetFlags(set scenarios.Settings) string {
	var b strings.Builder
	if set.MaxEvents > 0 {
		fmt.Fprintf(&b, " --max-events %d", set.MaxEvents)
	}
	if set.MaxTime > 0 {
		fmt.Fprintf(&b, " --max-time %s", set.MaxTime)
	}
	return b.String()
}

// sortedSets spells params as --set values, name=value, sorted by name.
func sortedSets(params map[string]string) []string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "=" + params[k]
	}
	return out
}
