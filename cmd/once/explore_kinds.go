package main

import (
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// onlyKindsThatBranch keeps a search from proving anything vacuously: it
// counts, from the topology, the choice points of every requested fault
// kind (scenarios.CountChoicePoints). A kind named explicitly with
// --faults that has none is refused, with the reason; "all" and the
// scenario's defaults mean the kinds that have some, and kinds and
// set.Faults are narrowed to those (the header lists them, the replay
// line repeats them). --max-preemptions given with no store node is
// refused the same way; from the scenario's defaults it becomes 0.
func (o *exploreOptions) onlyKindsThatBranch(sc *scenarios.Scenario, set *scenarios.Settings, kinds *[]string) error {
	points, err := sc.ChoicePoints(*set)
	if err != nil {
		return usageErr("%v", err)
	}
	explicit := o.changed != nil && o.changed("faults") && strings.TrimSpace(o.faults) != "all"
	var keep []string
	for _, name := range *kinds {
		k, _ := sim.ParseFaultKind(name)
		if points.Has(k) {
			keep = append(keep, name)
			continue
		}
		if explicit {
			return usageErr("--faults %s: %s has %s", name, sc.Name, scenarios.NoChoicePoint(k))
		}
	}
	if len(keep) == 0 {
		return usageErr("--faults %s: %s has no choice point for any of these kinds (no lossy link, no crash point, no store)", o.faults, sc.Name)
	}
	if len(keep) < len(*kinds) {
		faults, names, err := sc.ExploreFaults(strings.Join(keep, ","))
		if err != nil {
			return usageErr("%v", err)
		}
		set.Faults, *kinds, o.faults = faults, names, strings.Join(names, ",")
	}
	if o.maxPreemptions > 0 && !points.Has(sim.FaultPreempt) {
		if o.changed != nil && o.changed("max-preemptions") {
			return usageErr("--max-preemptions %d: %s has %s", o.maxPreemptions, sc.Name, scenarios.NoChoicePoint(sim.FaultPreempt))
		}
		o.maxPreemptions = 0
	}
	return nil
}
