package live

import (
	"fmt"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/sim"
)

// Supports reports, as one line wrapping ErrNotLive, the first fault of
// cfg that live mode cannot inject for real in this scenario: a flag is
// honoured or refused, never accepted and ignored.
//
// Live injects loss, ack-loss, dup, slow and late on every link it runs
// (client → service, service → gateway, service → key store) and opens
// the scenario's partitions in real time; crash kills the payment service
// (SIGKILL) or takes the key store down; pause freezes the payment service
// process (SIGSTOP, then SIGCONT); preempt holds a request between two
// statements of a key store node at a barrier. Anything else — a crash of
// a node live does not run as a process, a pause of the key store, a
// preempt with no key store node — is refused.
//
// faults, when not nil, is the profile the configuration was made with: a
// preempt, crash or pause it asks for that no node of the scenario can
// take is refused too (the simulator would draw none).
func Supports(cfg *sim.Config, faults *sim.FaultProfile) error {
	p, err := findParts(cfg)
	if err != nil {
		return err
	}
	if _, ok := cfg.Network.(*network.Network); !ok {
		return fmt.Errorf("%w: the scenario's network is not a link table", ErrNotLive)
	}
	if err := p.supportsRest(cfg.Topology); err != nil {
		return err
	}
	topo := cfg.Topology
	for i := range topo.Nodes {
		n := sim.NodeID(i)
		spec := &topo.Nodes[i]
		name := topo.NodeName(n)
		crashes := spec.Crashable && spec.CrashProbability > 0
		pauses := spec.Crashable && spec.PauseProbability > 0
		switch {
		case crashes && n != p.service && !(p.checked != nil && n == p.store):
			return notLive("live_crash_node", map[string]any{"Node": name}, "--crash: live crashes the payment service process and the key store, not "+name)
		case (crashes || pauses) && n == p.service && p.intent != nil:
			return noCrashPoint(crashes)
		case crashes && n == p.service && p.checked != nil:
			return notLive("live_crash_checked", nil, "--crash: the checked-payment-service has no crash point (the simulator's has none either)")
		case pauses && n != p.service:
			return notLive("live_pause_node", map[string]any{"Node": name}, "--pause: live pauses the payment service process (SIGSTOP), not "+name)
		case pauses && p.checked != nil:
			return notLive("live_pause_checked", nil, "--pause: the checked-payment-service has no crash point to pause at")
		case spec.Store && spec.PreemptProbability > 0 && (p.checked == nil || n != p.store):
			return notLive("live_preempt_node", map[string]any{"Node": name}, "--preempt: live holds requests only at the key store of the checked-payment-service, not at "+name)
		}
	}
	if faults == nil {
		return nil
	}
	crashable := false
	for i := range topo.Nodes {
		crashable = crashable || topo.Nodes[i].Crashable
	}
	switch {
	case faults.Probability[sim.FaultPreempt] > 0 && p.checked == nil:
		return notLive("live_preempt_no_store", nil, "--preempt: this scenario has no key store node of its own, so no reply to hold (the simulator draws none either)")
	case faults.Probability[sim.FaultCrash] > 0 && !crashable:
		return notLive("live_crash_none", nil, "--crash: no node of this scenario can crash (the simulator draws none either)")
	case faults.Probability[sim.FaultPause] > 0 && !topo.Nodes[p.service].Crashable:
		return notLive("live_pause_no_point", nil, "--pause: the payment service of this scenario has no crash point to pause at")
	}
	return nil
}
