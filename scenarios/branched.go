package scenarios

import (
	"github.com/oncesim/once/network"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// BranchedKinds names, in table order, the fault kinds whose choice
// points a search actually branched at (search.Result.Branched):
// a branch is a kind's when the configuration build makes for that kind
// alone (as CountChoicePoints asks it) offers the kind's choice at the
// branch's place — which tells a loss on a request link ("loss") from one
// on a response link ("ack-loss"). A kind the search enumerated but never
// branched on is left out: HOLDS says nothing about it.
func BranchedKinds(build func(Faults) (*sim.Config, error), branches []search.Branch) ([]string, error) {
	names := []string{}
	if len(branches) == 0 {
		return names, nil
	}
	for k := range sim.FaultKinds {
		kind := sim.FaultKind(k)
		spec := kind.Spec()
		var mine []search.Branch
		for _, b := range branches {
			if b.Kind == spec.Choice {
				mine = append(mine, b)
			}
		}
		if len(mine) == 0 {
			continue
		}
		if spec.Links == sim.AtPoints || spec.Links == sim.AtStores {
			names = append(names, spec.Name) // one fault kind per choice kind
			continue
		}
		var f Faults
		f.Probability[k] = exploreProbability
		cfg, err := build(f)
		if err != nil {
			return nil, err
		}
		net, ok := cfg.Network.(*network.Network)
		for _, b := range mine {
			if !ok || net.LinkAt(b.Node, b.Peer).Probability[spec.Choice] > 0 {
				names = append(names, spec.Name)
				break
			}
		}
	}
	return names, nil
}

// BranchedKinds is the package-level BranchedKinds for the scenario under
// set (its semantics, operations and parameters).
func (sc *Scenario) BranchedKinds(set Settings, branches []search.Branch) ([]string, error) {
	return BranchedKinds(sc.buildWith(set), branches)
}

// buildWith returns the configuration builder of the scenario under set,
// with the faults replaced by the given ones (and the scenario's fault
// durations).
func (sc *Scenario) buildWith(set Settings) func(Faults) (*sim.Config, error) {
	return func(f Faults) (*sim.Config, error) {
		s := set
		f.Duration = sc.Faults.Duration
		s.Faults = f
		return sc.Config(s)
	}
}
