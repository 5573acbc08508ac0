package runs

import (
	"slices"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// ScenarioNames are the catalog's names starting with prefix, for shell
// completion (read from the catalog's file names: nothing is decoded).
func ScenarioNames(prefix string) []string {
	var out []string
	for _, name := range scenarios.Names() {
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	return out
}

// SemanticsNames are what --semantics takes: the aliases, then all.
func SemanticsNames(sc *scenarios.Scenario) []string {
	var out []string
	sems := sim.AllSemantics
	if sc != nil {
		sems = sc.Semantics
	}
	for _, s := range sems {
		out = append(out, s.Alias())
	}
	return append(out, "all")
}

// SetKeys are the "name=" completions of --set: the parameters of sc, or
// of every catalog scenario (from the catalog's index) when sc is nil,
// starting with prefix.
func SetKeys(sc *scenarios.Scenario, prefix string) []string {
	var names []string
	if sc != nil {
		for _, p := range sc.Params {
			names = append(names, p.Name)
		}
	} else {
		for _, e := range scenarios.Index() {
			names = append(names, e.Params...)
		}
	}
	var out []string
	for _, name := range names {
		if k := name + "="; strings.HasPrefix(k, prefix) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// FaultKindList completes the last element of a comma list of fault
// kinds (--faults): the kinds not yet in the list, after what is typed.
func FaultKindList(typed string) []string {
	head, last := "", typed
	if i := strings.LastIndexByte(typed, ','); i >= 0 {
		head, last = typed[:i+1], typed[i+1:]
	}
	have := strings.Split(head, ",")
	var out []string
	for _, k := range append(sim.FaultKindNames(), "all") {
		if strings.HasPrefix(k, last) && !slices.Contains(have, k) && (k != "all" || head == "") {
			out = append(out, head+k)
		}
	}
	return out
}
