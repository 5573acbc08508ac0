package lab

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// ChoicePoints counts, per fault kind, the places a lab run under sem
// offers it as a choice, from the session's topology (the played nodes
// in place, no process started): the links, the crashable nodes — yours
// included when the scenario's node is — and, for preempt, your node's
// replicas when there are several (the lab preempts at its own stores).
// A kind with none never branches: an explore over it proves nothing.
func (l *Lab) ChoicePoints(sem sim.Semantics) (scenarios.ChoicePoints, error) {
	points, err := scenarios.CountChoicePoints(func(f scenarios.Faults) (*sim.Config, error) {
		c := &Lab{Scenario: l.Scenario, Settings: l.Settings, Commands: l.Commands, Replicas: l.Replicas}
		f.Duration = l.Settings.Faults.Duration
		c.Settings.Faults = f
		s, err := c.NewSession(sem)
		if err != nil {
			return nil, err
		}
		return s.Config(), nil
	})
	if err != nil {
		return points, err
	}
	points[sim.FaultPreempt] = 0
	if l.Preemptible() {
		points[sim.FaultPreempt] = len(l.Commands) * l.replicas()
	}
	return points, nil
}

// KeepKindsThatBranch keeps a lab search from proving anything vacuously,
// as `once explore` does: of kinds (the fault kinds the search would
// draw), a kind with no choice point in the lab's topology (no lossy link,
// no crash point) is refused with the reason when it was named explicitly
// (explicit: --faults other than "all"); otherwise — "all", the scenario's
// defaults — it is dropped, and the lab's faults are narrowed to the kinds
// kept. It returns the kinds kept; an error is the user's mistake.
func (l *Lab) KeepKindsThatBranch(sem sim.Semantics, kinds []string, explicit bool) ([]string, error) {
	points, err := l.ChoicePoints(sem)
	if err != nil {
		return nil, err
	}
	var keep []string
	for _, name := range kinds {
		k, _ := sim.ParseFaultKind(name)
		if points.Has(k) {
			keep = append(keep, name)
			continue
		}
		if explicit {
			return nil, fmt.Errorf("--faults %s: %s has %s", name, l.Scenario.Name, scenarios.NoChoicePoint(k))
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("--faults %s: %s has no choice point for any of these kinds (no lossy link, no crash point)", strings.Join(kinds, ","), l.Scenario.Name)
	}
	if len(keep) < len(kinds) {
		faults, names, err := l.Scenario.ExploreFaults(strings.Join(keep, ","))
		if err != nil {
			return nil, err
		}
		l.Settings.Faults, keep = faults, names
	}
	return keep, nil
}
