package explore

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Kinds is what a search enumerates: the fault kinds (as named with
// --faults, or "all") and the preemption budget. Changed reports whether
// the user set a flag (faults, max-preemptions) rather than the scenario.
type Kinds struct {
	Faults         string
	MaxPreemptions int
	Changed        func(string) bool
}

// OnlyKindsThatBranch keeps a search from proving anything vacuously: it
// counts, from the topology, the choice points of every requested fault
// kind (scenarios.CountChoicePoints). A kind named explicitly with
// --faults that has none is refused, with the reason; "all" and the
// scenario's defaults mean the kinds that have some, and kinds and
// set.Faults are narrowed to those (the header lists them, the replay
// line repeats them). --max-preemptions given with no store node is
// refused the same way; from the scenario's defaults it becomes 0.
func (o *Kinds) OnlyKindsThatBranch(sc *scenarios.Scenario, set *scenarios.Settings, kinds *[]string) error {
	changed := func(name string) bool { return o.Changed != nil && o.Changed(name) }
	points, err := sc.ChoicePoints(*set)
	if err != nil {
		return err
	}
	explicit := changed("faults") && strings.TrimSpace(o.Faults) != "all"
	var keep []string
	for _, name := range *kinds {
		k, _ := sim.ParseFaultKind(name)
		if points.Has(k) {
			keep = append(keep, name)
			continue
		}
		if explicit {
			return fmt.Errorf("--faults %s: %s has %s", name, sc.Name, scenarios.NoChoicePoint(k))
		}
	}
	if len(keep) == 0 {
		return fmt.Errorf("--faults %s: %s has no choice point for any of these kinds (no lossy link, no crash point, no store)", o.Faults, sc.Name)
	}
	if len(keep) < len(*kinds) {
		faults, names, err := sc.ExploreFaults(strings.Join(keep, ","))
		if err != nil {
			return err
		}
		set.Faults, *kinds, o.Faults = faults, names, strings.Join(names, ",")
	}
	if o.MaxPreemptions > 0 && !points.Has(sim.FaultPreempt) {
		if changed("max-preemptions") {
			return fmt.Errorf("--max-preemptions %d: %s has %s", o.MaxPreemptions, sc.Name, scenarios.NoChoicePoint(sim.FaultPreempt))
		}
		o.MaxPreemptions = 0
	}
	return nil
}
