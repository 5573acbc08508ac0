package sim

import (
	"fmt"
	"strings"
)

// Fault names one non-default answer to a Choice by what it hits: the
// identity of the choice plus its occurrence (the n-th choice with that
// identity in the run, 1-based). Removing one fault from a plan therefore
// never shifts the others.
type Fault struct {
	Kind       ChoiceKind
	Node       NodeID
	Peer       NodeID
	Msg        MsgKind
	Op         OpID
	Attempt    int32
	Point      PointID
	Occurrence int32
	Value      int32 // the alternative chosen (1 for every fault kind)
}

// faultKey is the identity of a choice without its occurrence.
type faultKey struct {
	kind    ChoiceKind
	node    NodeID
	peer    NodeID
	msg     MsgKind
	op      OpID
	attempt int32
	point   PointID
}

func keyOf(c *Choice) faultKey {
	return faultKey{c.Kind, c.Node, c.Peer, c.Msg, c.Op, c.Attempt, c.Point}
}

func keyOfFault(f *Fault) faultKey {
	return faultKey{f.Kind, f.Node, f.Peer, f.Msg, f.Op, f.Attempt, f.Point}
}

// occurrences counts choices by identity.
type occurrences map[faultKey]int32

func (o occurrences) next(c *Choice) (faultKey, int32) {
	k := keyOf(c)
	o[k]++
	return k, o[k]
}

// Scripted is a Chooser that replays a fault plan: it answers a fault
// choice with the plan's value when the plan names it and with 0 otherwise,
// and every other choice (jitter) from Rest.
type Scripted struct {
	Rest Chooser // answers what the plan does not name; nil = Defaults
	plan map[faultKey]map[int32]int32
	seen occurrences
	used int
}

// NewScripted returns a Scripted chooser for faults; rest (may be nil)
// answers the choices that are not faults, typically NewJitter(seed).
func NewScripted(faults []Fault, rest Chooser) *Scripted {
	s := &Scripted{Rest: rest, plan: map[faultKey]map[int32]int32{}, seen: occurrences{}}
	for i := range faults {
		f := &faults[i]
		k := keyOfFault(f)
		if s.plan[k] == nil {
			s.plan[k] = map[int32]int32{}
		}
		s.plan[k][f.Occurrence] = f.Value
	}
	return s
}

// Choose implements Chooser.
func (s *Scripted) Choose(c Choice) int {
	if !c.Kind.IsFault() {
		if s.Rest == nil {
			return 0
		}
		return s.Rest.Choose(c)
	}
	k, n := s.seen.next(&c)
	v, ok := s.plan[k][n]
	if !ok || v < 0 || v >= c.N {
		return 0
	}
	s.used++
	return int(v)
}

// Used reports how many of the plan's faults were hit by the run.
func (s *Scripted) Used() int { return s.used }

// Recording wraps a Chooser and writes down every non-default answer as a
// Fault, so that any run — random, explored or drawn by rapid — can be saved
// and replayed with Scripted.
type Recording struct {
	Inner  Chooser
	Faults []Fault
	seen   occurrences
}

// NewRecording returns a Recording around inner.
func NewRecording(inner Chooser) *Recording {
	return &Recording{Inner: inner, seen: occurrences{}}
}

// Choose implements Chooser. Only fault choices are written down: the
// jitter is reproduced from the seed.
func (r *Recording) Choose(c Choice) int {
	v := r.Inner.Choose(c)
	if !c.Kind.IsFault() {
		return v
	}
	_, n := r.seen.next(&c)
	if v != 0 {
		r.Faults = append(r.Faults, Fault{
			Kind: c.Kind, Node: c.Node, Peer: c.Peer, Msg: c.Msg, Op: c.Op,
			Attempt: c.Attempt, Point: c.Point, Occurrence: n, Value: int32(v),
		})
	}
	return v
}

// FaultLine formats f as a line of a fault plan, naming what it hits:
// "loss from=service to=client msg=pay-response op=3 attempt=1
// occurrence=1" or "crash node=service point=after-charge msg=… op=2
// attempt=1 occurrence=1" (a pause reads like a crash). Every tool prints faults this way: run --save,
// explore, the rapid property tests, the TUI.
func (t *Topology) FaultLine(f Fault) string {
	var b strings.Builder
	b.WriteString(t.Registry().ChoiceName(f.Kind))
	if f.Kind.AtPoint() {
		fmt.Fprintf(&b, " node=%s point=%s", t.NodeName(f.Node), t.PointName(f.Point))
		if f.Msg != 0 {
			fmt.Fprintf(&b, " msg=%s", t.MessageName(f.Msg))
		}
	} else {
		fmt.Fprintf(&b, " from=%s to=%s msg=%s", t.NodeName(f.Node), t.NodeName(f.Peer), t.MessageName(f.Msg))
	}
	fmt.Fprintf(&b, " op=%d attempt=%d occurrence=%d", f.Op, f.Attempt, f.Occurrence)
	return b.String()
}
