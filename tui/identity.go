package tui

import (
	"slices"

	"github.com/oncesim/once/sim"
)

// Runs of one scenario under two semantics number their nodes and message
// kinds each its own way (a semantics may add a key store). What the user
// points at — a message to drop, the event under the cursor — is kept by
// names, so that it can be found again in the run of another semantics.

// msgKey names one loss choice by identity: sender, receiver and message
// kind by name, the operation, the attempt and the occurrence.
type msgKey struct {
	from, to, kind string
	op             sim.OpID
	attempt        int32
	occ            int32
}

// keyOfFault names the loss fault f of r's topology.
func (r *result) keyOfFault(f sim.Fault) msgKey {
	return msgKey{from: r.topo.NodeName(f.Node), to: r.topo.NodeName(f.Peer), kind: r.topo.MessageName(f.Msg),
		op: f.Op, attempt: f.Attempt, occ: f.Occurrence}
}

// faultOf is the loss fault k names in r's topology; ok is false when r
// has no such node or message kind.
func (r *result) faultOf(k msgKey) (sim.Fault, bool) {
	if r.topo == nil {
		return sim.Fault{}, false
	}
	from, ok1 := r.topo.NodeByName(k.from)
	to, ok2 := r.topo.NodeByName(k.to)
	kind, ok3 := r.topo.MessageByName(k.kind)
	if !ok1 || !ok2 || !ok3 {
		return sim.Fault{}, false
	}
	return lossFault(msgIdentity{from: from, to: to, kind: kind, op: k.op, attempt: k.attempt}, k.occ), true
}

// planFor applies the user's what-ifs to base's recorded faults: a drop
// adds its loss, a deliver removes it. A what-if whose message base's
// topology cannot name is skipped and reported in missing.
func planFor(base *result, toggles []toggle) (plan []sim.Fault, missing map[msgKey]bool) {
	plan = slices.Clone(base.faults)
	missing = map[msgKey]bool{}
	for _, t := range toggles {
		f, ok := base.faultOf(t.key)
		if !ok {
			missing[t.key] = true
			continue
		}
		j := slices.Index(plan, f)
		switch {
		case t.drop && j < 0:
			plan = append(plan, f)
		case !t.drop && j >= 0:
			plan = slices.Delete(plan, j, j+1)
		}
	}
	return plan, missing
}

// eventKey is an event's identity across runs: what happened, where, to
// which message of which operation, and the how-many-th such event it is.
type eventKey struct {
	kind      sim.EventKind
	node      string
	peer      string
	msg       string
	op        sim.OpID
	attempt   int32
	occurence int
}

// eventKeys names every event of r by identity.
func (r *result) eventKeys() []eventKey {
	keys := make([]eventKey, len(r.events))
	seen := map[eventKey]int{}
	for i := range r.events {
		e := &r.events[i]
		k := eventKey{kind: e.Kind, node: r.topo.NodeName(e.Node), op: e.Msg.Op, attempt: e.Msg.Attempt}
		if messageEvent(e.Kind) {
			k.msg = r.topo.MessageName(e.Msg.Kind)
			if e.Peer != sim.NoNode {
				k.peer = r.topo.NodeName(e.Peer)
			}
		}
		seen[k]++
		k.occurence = seen[k]
		keys[i] = k
	}
	return keys
}

// sameEvent is the index in to of the event i of from, matched by
// identity; when to has no such event, the first event of to at or after
// its time (exact is then false).
func sameEvent(from, to *result, i int) (j int, exact bool) {
	if i < 0 || i >= len(from.keys) || len(to.events) == 0 {
		return 0, false
	}
	if j := slices.Index(to.keys, from.keys[i]); j >= 0 {
		return j, true
	}
	at := from.events[i].At
	j = slices.IndexFunc(to.events, func(e sim.Event) bool { return e.At >= at })
	if j < 0 {
		j = len(to.events) - 1
	}
	return j, false
}
