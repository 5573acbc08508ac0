// Package simrapid is a sim.Chooser that draws a run's fault schedule from
// a *rapid.T, so that a property test over the simulator shrinks a failing
// run to a minimal fault schedule for free.
//
// Every fault choice (loss, duplicate, slow, crash) whose probability P is
// strictly between 0 and 1 becomes one rapid draw, an integer in [0, 999]
// labelled by the choice's identity ("loss service→client pay-response
// op-3/1 #1": kind, sender→receiver or node, message or crash point, op,
// attempt, occurrence). The fault fires when the drawn value is at least
// 1000 - round(P*1000), so the draw's small values — the ones rapid
// shrinks toward — mean "no fault", and 0 is always the fault-free answer.
// Shrinking therefore removes faults one by one until only the ones the
// failure needs are left.
//
// rapid biases integer draws toward small values, so a fault fires less
// often than P in a fresh draw: read P as a weight ("more of this fault"),
// not as a rate. A choice with P <= 0 is never a fault and P >= 1 always
// is; neither consumes a draw, so a zero probability adds no draws.
//
// Jitter (and any other non-fault choice) is answered with 0, the shortest
// delay, without drawing: the properties this package serves are about
// effect cardinality, and the interleavings that matter for them are made
// by faults (a lost response, a slow message overtaken by a retry, a
// crash), not by a few ticks of jitter. Keeping jitter out of the draws also
// keeps the shrunk schedule about faults only, and replayable with
// sim.NewScripted(faults, nil), whose jitter is 0 as well.
//
// The Chooser writes down every fault it answers through a sim.Recording;
// Faults returns them, and FormatFaults prints them in the lesson's terms.
package simrapid

import (
	"math"
	"strconv"
	"strings"

	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// faultDraw is the generator behind every fault choice: 0 is no fault.
var faultDraw = rapid.IntRange(0, 999)

// Chooser answers a run's choices from a *rapid.T and records the faults
// it chose. One Chooser serves one run.
type Chooser struct {
	// Topology, when set, names nodes, messages and crash points in draw
	// labels; without it labels use numeric ids. It does not change what
	// is drawn.
	Topology *sim.Topology

	rec *sim.Recording
}

// New returns a Chooser drawing from t.
func New(t *rapid.T) *Chooser {
	d := &drawer{t: t, seen: map[sim.Choice]int32{}}
	c := &Chooser{rec: sim.NewRecording(d)}
	d.owner = c
	return c
}

// Choose implements sim.Chooser.
func (c *Chooser) Choose(ch sim.Choice) int { return c.rec.Choose(ch) }

// Faults returns the faults chosen so far, in the order they were chosen,
// named by identity and occurrence (a plan for sim.NewScripted).
func (c *Chooser) Faults() []sim.Fault { return c.rec.Faults }

// drawer is the inner chooser the Recording wraps.
type drawer struct {
	t     *rapid.T
	owner *Chooser
	seen  map[sim.Choice]int32 // occurrences by identity, for labels
}

// threshold returns the smallest drawn value that means "fault" for p.
func threshold(p float64) int {
	return 1000 - int(math.Round(p*1000))
}

// Choose implements sim.Chooser.
func (d *drawer) Choose(c sim.Choice) int {
	if !c.Kind.IsFault() {
		return 0 // jitter: the shortest delay, not drawn
	}
	switch {
	case c.P <= 0:
		return 0
	case c.P >= 1:
		return 1
	}
	id := c
	id.N, id.P = 0, 0
	d.seen[id]++
	if faultDraw.Draw(d.t, label(d.owner.Topology, &c, d.seen[id])) >= threshold(c.P) {
		return 1
	}
	return 0
}

// label names a choice for rapid's log, e.g. "loss service→client
// pay-response op-3/1 #1" or "crash service after-charge op-2/1 #1".
func label(topo *sim.Topology, c *sim.Choice, occurrence int32) string {
	var b strings.Builder
	b.WriteString(c.Kind.String())
	b.WriteByte(' ')
	if c.Kind.AtPoint() {
		b.WriteString(nodeName(topo, c.Node))
		b.WriteByte(' ')
		b.WriteString(pointName(topo, c.Point))
	} else {
		b.WriteString(nodeName(topo, c.Node))
		b.WriteString("→")
		b.WriteString(nodeName(topo, c.Peer))
		b.WriteByte(' ')
		b.WriteString(messageName(topo, c.Msg))
	}
	if c.Op != 0 {
		b.WriteByte(' ')
		b.WriteString(c.Op.String())
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(int(c.Attempt)))
	}
	b.WriteString(" #")
	b.WriteString(strconv.Itoa(int(occurrence)))
	return b.String()
}

func nodeName(topo *sim.Topology, n sim.NodeID) string {
	if topo == nil {
		return "n" + strconv.Itoa(int(n))
	}
	return topo.NodeName(n)
}

func messageName(topo *sim.Topology, m sim.MsgKind) string {
	if topo == nil {
		return "m" + strconv.Itoa(int(m))
	}
	return topo.MessageName(m)
}

func pointName(topo *sim.Topology, p sim.PointID) string {
	if topo == nil {
		return "p" + strconv.Itoa(int(p))
	}
	return topo.PointName(p)
}

// FormatFaults prints a fault schedule one fault per line, as the lines
// of a fault plan (sim.Topology.FaultLine) — the form run --save and
// explore print, so a shrunk property failure can be pasted into a plan
// and replayed with once replay:
//
//	loss from=service to=client msg=pay-response op=3 attempt=1 occurrence=1
//	crash node=service point=after-charge op=2 attempt=1 occurrence=1
func FormatFaults(topo *sim.Topology, faults []sim.Fault) string {
	if len(faults) == 0 {
		return "no faults"
	}
	lines := make([]string, len(faults))
	for i, f := range faults {
		lines[i] = topo.FaultLine(f)
	}
	return strings.Join(lines, "\n")
}
