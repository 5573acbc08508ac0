package scenarios

import (
	"fmt"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/sim"
)

// ChoicePoints counts, for each fault kind, the places a scenario offers it
// as a choice, read from the built topology before any run: the links that
// carry it (a request link a loss, a response link an ack-loss, both a
// dup, slow or late), the crashable nodes (crash, pause: their crash
// points), the store nodes (preempt: their replies). A kind with none
// never branches, and a search "over" it proves nothing about it:
// explore refuses such a kind when it is named, and leaves it out of
// "all" and of a scenario's defaults.
type ChoicePoints [sim.MaxFaultKinds]int

// Has reports whether kind k has a choice point.
func (c *ChoicePoints) Has(k sim.FaultKind) bool { return c[k] > 0 }

// CountChoicePoints counts the choice points of every fault kind in the
// configurations build returns: build is asked once per kind, with a
// fault profile where only that kind is on, and must build the topology
// the search would run (a catalog scenario's Config, or a lab's). The
// count is of places (links, nodes), not of the times a run passes them.
func CountChoicePoints(build func(Faults) (*sim.Config, error)) (ChoicePoints, error) {
	var out ChoicePoints
	for k := range sim.FaultKinds {
		var f Faults
		f.Probability[k] = exploreProbability
		cfg, err := build(f)
		if err != nil {
			return out, err
		}
		out[k] = choicePointsOf(cfg, sim.FaultKind(k))
	}
	return out, nil
}

// choicePointsOf counts kind k's places in cfg, built with k on.
func choicePointsOf(cfg *sim.Config, k sim.FaultKind) int {
	spec := k.Spec()
	nodes := cfg.Topology.Nodes
	n := 0
	switch spec.Links {
	case sim.AtPoints:
		for i := range nodes {
			if nodes[i].Crashable && (k == sim.FaultCrash && nodes[i].CrashProbability > 0 || k == sim.FaultPause && nodes[i].PauseProbability > 0) {
				n++
			}
		}
	case sim.AtStores:
		for i := range nodes {
			if nodes[i].Store && nodes[i].PreemptProbability > 0 {
				n++
			}
		}
	default:
		net, ok := cfg.Network.(*network.Network)
		if !ok {
			return 1 // a network this package did not build: assume it offers the kind
		}
		for from := range nodes {
			for to := range nodes {
				if from != to && net.LinkAt(sim.NodeID(from), sim.NodeID(to)).Probability[spec.Choice] > 0 {
					n++
				}
			}
		}
	}
	return n
}

// ChoicePoints counts the choice points of every fault kind in the
// scenario under set (its semantics, operations and parameters; its
// faults are ignored).
func (sc *Scenario) ChoicePoints(set Settings) (ChoicePoints, error) {
	return CountChoicePoints(sc.buildWith(set))
}

// NoChoicePoint says, in a few words, why fault kind k has no choice
// point: "no lossy link (every request link is reliable)".
func NoChoicePoint(k sim.FaultKind) string {
	spec := k.Spec()
	switch {
	case spec.Links == sim.AtPoints:
		return "no crash point (no node is marked crash: true)"
	case spec.Links == sim.AtStores:
		return "no store operation to preempt (no store node)"
	case spec.Links == sim.Requests:
		return "no lossy link (every request link is reliable)"
	case spec.Links == sim.Responses:
		return "no lossy link (every response link is reliable)"
	}
	return fmt.Sprintf("no link that carries %s (every link is reliable)", k)
}
