package runs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// FromCatalog reports whether sc is the built-in scenario of its name (and
// not a file that happens to share it).
func FromCatalog(sc *scenarios.Scenario) bool {
	c, err := scenarios.Lookup(sc.Name)
	return err == nil && c == sc
}

// Ref is how a command line names sc: its catalog name, or "-f FILE" for
// a scenario file.
func Ref(sc *scenarios.Scenario) string {
	if FromCatalog(sc) {
		return sc.Name
	}
	return "-f " + sc.File
}

// FaultChange is one fault setting that differs from a baseline.
type FaultChange struct {
	Name  string // as the flag and --vary spell it
	Value string // as the flag takes it
}

// FaultChanges lists the fault settings of f (probabilities and
// durations, in the order of sim.FaultKinds) that differ from base.
func FaultChanges(base, f scenarios.Faults) []FaultChange {
	var out []FaultChange
	for _, name := range sim.FaultSettingNames() {
		if v := f.Format(name); v != base.Format(name) {
			out = append(out, FaultChange{name, v})
		}
	}
	return out
}

// Command is the exact command line that reproduces one run: the
// scenario (its catalog name or -f FILE), the semantics and seed, the
// operation count, every fault probability unlike the scenario's, every
// parameter set (sorted) and the budgets set on the command line. A
// scenario file's own defaults and budgets come back with the file.
func Command(sc *scenarios.Scenario, sem sim.Semantics, seed uint64, set scenarios.Settings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "once run %s --semantics %s --seed %d --ops %d", Ref(sc), sem.Alias(), seed, set.Ops)
	return b.String() + SettingFlags(sc, set)
}

// SettingFlags spells what set changes of sc's defaults as flags: every
// fault setting unlike the scenario's, every parameter (sorted) and the
// budgets — the tail of every command line that reproduces a run (run,
// lab, live).
func SettingFlags(sc *scenarios.Scenario, set scenarios.Settings) string {
	var b strings.Builder
	for _, f := range FaultChanges(sc.Faults, set.Faults) {
		fmt.Fprintf(&b, " --%s %s", f.Name, f.Value)
	}
	for _, kv := range SortedSets(set.Params) {
		fmt.Fprintf(&b, " --set %s", kv)
	}
	b.WriteString(BudgetFlags(set))
	return b.String()
}

// BudgetFlags spells the budgets set on the command line (none: the
// scenario's or the engine's defaults, which need no flag).
func BudgetFlags(set scenarios.Settings) string {
	var b strings.Builder
	for _, bu := range set.Budgets() {
		fmt.Fprintf(&b, " --%s %s", bu.Name, bu.Value)
	}
	return b.String()
}

// SortedSets spells params as --set values, name=value, sorted by name.
func SortedSets(params map[string]string) []string {
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
