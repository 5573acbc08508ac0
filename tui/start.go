package tui

import "github.com/oncesim/once/scenarios"

// Open makes the explorer start on sc, its first run with set's fault
// profile (when it differs from the scenario's) and parameters, and
// offers the catalog, but a namesake of sc that is not sc (sc came from
// a file): the explorer adds Start to the list itself.
func (o *Options) Open(sc *scenarios.Scenario, set scenarios.Settings) {
	if set.Faults != sc.Faults { // a fault flag: its profile replaces the scenario's
		o.Faults = &set.Faults
	}
	if len(set.Params) > 0 {
		o.Params = set.Params
	}
	o.Start = sc
	o.Scenarios = nil
	for _, s := range scenarios.All() {
		if s.Name != sc.Name || s == sc {
			o.Scenarios = append(o.Scenarios, s)
		}
	}
}
