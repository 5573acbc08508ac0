package live

import (
	"fmt"

	"github.com/oncesim/once/sim"
)

// evidenceKinds are the events both worlds record alike: messages sent,
// delivered and dropped, crashes, restarts, pauses, preempts, outcomes.
// (Store reads and writes and effects are recorded differently: live
// counts effects in the database at the end.)
var evidenceKinds = map[sim.EventKind]bool{sim.EvSend: true, sim.EvDeliver: true, sim.EvDrop: true,
	sim.EvCrash: true, sim.EvRestart: true, sim.EvOutcome: true, sim.EvPause: true, sim.EvResume: true,
	sim.EvPreempt: true, sim.EvDuplicate: true, sim.EvSlow: true, sim.EvLate: true}

// eventID is what makes two events of the two worlds the same event.
type eventID struct {
	kind       sim.EventKind
	node, peer sim.NodeID
	msg        sim.MsgKind
	op         sim.OpID
	attempt    int32
	reason     uint8
	label      uint16
}

func idOf(e *sim.Event) eventID {
	id := eventID{kind: e.Kind, node: e.Node, peer: e.Peer, msg: e.Msg.Kind, op: e.Msg.Op, attempt: e.Msg.Attempt,
		reason: uint8(e.Reason), label: e.Label}
	switch e.Kind {
	case sim.EvRestart, sim.EvResume:
		id.msg, id.op, id.attempt = 0, 0, 0 // they name no message
	case sim.EvPause, sim.EvCrash:
		id.msg = 0 // the simulator's names none; live names the message handled
	case sim.EvOutcome:
		id.attempt = 0 // the simulator's names no attempt; live names the one answered
	}
	return id
}

// Evidence is the timing evidence of one run that disagrees: the first
// event only the simulator has and the first only live has (where the
// two runs part), and the event both have whose time moved most before
// that point (what made them part). Times are ticks from the run's start.
type Evidence struct {
	OnlySim, OnlyLive string
	Shift             string
}

// shape is an event's kind, nodes and message kind: a shape only one world
// records (live records no delivery of a key store's reply) is left out.
type shape struct {
	kind       sim.EventKind
	node, peer sim.NodeID
	msg        sim.MsgKind
}

func shapeOf(e *sim.Event) shape {
	id := idOf(e)
	return shape{id.kind, id.node, id.peer, id.msg}
}

// compare matches the events of the two traces by identity, in order.
func compare(topo *sim.Topology, simT, liveT []sim.Event) Evidence {
	inSim, inLive := map[shape]bool{}, map[shape]bool{}
	for i := range simT {
		inSim[shapeOf(&simT[i])] = true
	}
	for i := range liveT {
		inLive[shapeOf(&liveT[i])] = true
	}
	var s, l []sim.Event
	for i, e := range simT {
		if evidenceKinds[e.Kind] && inLive[shapeOf(&simT[i])] {
			s = append(s, e)
		}
	}
	for i, e := range liveT {
		if evidenceKinds[e.Kind] && inSim[shapeOf(&liveT[i])] {
			l = append(l, e)
		}
	}
	waiting := map[eventID][]int{}
	for i := range l {
		id := idOf(&l[i])
		waiting[id] = append(waiting[id], i)
	}
	matched := make([]bool, len(l))
	type pair struct{ s, l int }
	var pairs []pair
	firstSim := -1
	for i := range s {
		id := idOf(&s[i])
		if q := waiting[id]; len(q) > 0 {
			waiting[id] = q[1:]
			matched[q[0]] = true
			pairs = append(pairs, pair{i, q[0]})
		} else if firstSim < 0 {
			firstSim = i
		}
	}
	firstLive := -1
	for i := range l {
		if !matched[i] {
			firstLive = i
			break
		}
	}
	var ev Evidence
	horizon := sim.Time(1 << 62)
	if firstSim >= 0 {
		ev.OnlySim = describe(topo, &s[firstSim])
		horizon = s[firstSim].At
	}
	if firstLive >= 0 {
		ev.OnlyLive = describe(topo, &l[firstLive])
		horizon = min(horizon, l[firstLive].At)
	}
	var best *pair
	var bestShift sim.Time
	for i := range pairs {
		p := &pairs[i]
		if s[p.s].At > horizon && l[p.l].At > horizon {
			continue
		}
		d := l[p.l].At - s[p.s].At
		if d < 0 {
			d = -d
		}
		if best == nil || d > bestShift {
			best, bestShift = p, d
		}
	}
	if best != nil && bestShift > 0 {
		e := s[best.s]
		e.At = 0
		ev.Shift = fmt.Sprintf("%s: %d → %d", describeAt(topo, &e, false), s[best.s].At, l[best.l].At)
	}
	return ev
}

// describe is one event in a line: its time, kind, node and message.
func describe(topo *sim.Topology, e *sim.Event) string { return describeAt(topo, e, true) }

func describeAt(topo *sim.Topology, e *sim.Event, at bool) string {
	s := ""
	if at {
		s = fmt.Sprintf("%d ", e.At)
	}
	s += topo.Registry().EventName(e.Kind)
	if e.Kind == sim.EvDrop {
		s += "(" + e.Reason.String() + ")"
	}
	s += " " + topo.NodeName(e.Node)
	if e.Peer != sim.NoNode && int(e.Peer) < len(topo.Nodes) {
		s += "↔" + topo.NodeName(e.Peer)
	}
	if id := idOf(e); id.op != 0 {
		if id.msg != 0 || e.Kind == sim.EvSend || e.Kind == sim.EvDeliver || e.Kind == sim.EvDrop {
			s += " " + topo.MessageName(e.Msg.Kind)
		}
		s += fmt.Sprintf(" op-%d #%d", e.Msg.Op, e.Msg.Attempt)
	}
	return s
}
