package lab

import (
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
