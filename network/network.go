// Package network models the links between nodes: loss per direction (so
// "ack loss" is loss on the way back), duplication, delay with jitter (so
// messages reorder), a "slow network" fault, and partitions in time windows.
//
// Every random decision is asked of the sim.Chooser; a link whose fault
// probabilities are zero offers no choice at all, so the zero Link is a
// perfect, instantaneous link.
package network

import (
	"fmt"

	"github.com/oncesim/once/sim"
)

// MaxDelay bounds every delay of a link (about twelve virtual days), so
// that jitter alternatives fit a Choice.
const MaxDelay sim.Time = 1 << 30

// Window is a half-open interval of virtual time [From, To).
type Window struct {
	From sim.Time
	To   sim.Time
}

// Contains reports whether t falls inside w.
func (w Window) Contains(t sim.Time) bool { return t >= w.From && t < w.To }

// Link is one direction between two nodes. Its fault probabilities are
// per message and indexed by choice kind: the link kinds of sim's table
// (sim.LinkChoiceKinds: loss, duplicate, slow, late), each doing what its
// sim.LinkEffect says — a new link kind needs no field and no case here.
type Link struct {
	Probability [sim.MaxChoiceKinds]float64  // by choice kind: how often it hits a message
	Hold        [sim.MaxChoiceKinds]sim.Time // by LinkHold kind: how long a message it hits is held
	Delay       sim.Time                     // base one-way delay
	Jitter      sim.Time                     // extra delay drawn uniformly from [0, Jitter]
	Partitions  []Window                     // while one is open, every message is dropped
}

// Validate reports the first field out of range, reading choice kinds as
// the built-in ones.
func (l *Link) Validate() error { return l.validate(nil) }

// validate is Validate over the choice kinds of kinds (nil: the built-in
// ones).
func (l *Link) validate(kinds *sim.Registry) error {
	for k, p := range l.Probability {
		if p == 0 {
			continue
		}
		if kinds.OnLink(sim.ChoiceKind(k)) == sim.NotOnLink {
			return fmt.Errorf("network: %s is not a link fault", kinds.ChoiceName(sim.ChoiceKind(k)))
		}
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("network: %s probability %v is outside [0,1]", kinds.ChoiceName(sim.ChoiceKind(k)), p)
		}
	}
	delays := []struct {
		name string
		d    sim.Time
	}{{"delay", l.Delay}, {"jitter", l.Jitter}}
	for _, k := range kinds.LinkChoiceKinds() {
		if kinds.OnLink(k) == sim.LinkHold {
			delays = append(delays, struct {
				name string
				d    sim.Time
			}{kinds.ChoiceName(k), l.Hold[k]})
		}
	}
	for _, d := range delays {
		if d.d < 0 {
			return fmt.Errorf("network: negative delay (%s %d)", d.name, d.d)
		}
		if d.d > MaxDelay {
			return fmt.Errorf("network: delay above %d ticks (%s %d)", MaxDelay, d.name, d.d)
		}
	}
	for _, w := range l.Partitions {
		if w.To < w.From {
			return fmt.Errorf("network: partition window [%d,%d) ends before it starts", w.From, w.To)
		}
	}
	return nil
}

// Network is a full mesh of directed links between n nodes.
type Network struct {
	n     int
	links []Link
	// asked holds, per link, the link kinds whose probability is above 0,
	// in table order: what Transmit asks, without walking every kind of
	// every link for every message. Validate fills it; taking a link for
	// configuration (Link) drops it, and Transmit then walks every kind.
	asked [][]sim.ChoiceKind
	// kinds are the choice kinds the links carry (nil: the built-in ones).
	kinds *sim.Registry
}

// UseKinds makes the network's links carry the link kinds of r (the
// registry of the world's topology) instead of the built-in ones.
func (n *Network) UseKinds(r *sim.Registry) {
	n.kinds = r
	n.asked = nil
}

// New returns a network of n nodes whose links are all perfect.
func New(n int) *Network {
	return &Network{n: n, links: make([]Link, n*n)}
}

// Link returns the link from → to for configuration. Call Validate once
// the network is configured: until then Transmit takes its slower path.
func (n *Network) Link(from, to sim.NodeID) *Link {
	n.asked = nil
	return &n.links[int(from)*n.n+int(to)]
}

// LinkAt returns a copy of the link from → to, for reading.
func (n *Network) LinkAt(from, to sim.NodeID) Link { return n.links[int(from)*n.n+int(to)] }

// Validate checks every link, and prepares each link's list of the kinds
// Transmit asks.
func (n *Network) Validate() error {
	for i := range n.links {
		if err := n.links[i].validate(n.kinds); err != nil {
			return fmt.Errorf("link %d→%d: %w", i/n.n, i%n.n, err)
		}
	}
	asked := make([][]sim.ChoiceKind, len(n.links))
	for i := range n.links {
		for _, k := range n.kinds.LinkChoiceKinds() {
			if n.links[i].Probability[k] > 0 {
				asked[i] = append(asked[i], k)
			}
		}
	}
	n.asked = asked
	return nil
}

func ask(ch sim.Chooser, kind sim.ChoiceKind, p float64, m *sim.Message) bool {
	// Filled field by field: a composite literal is built in a temporary
	// and copied whole into c, reading back the bytes it just wrote.
	var c sim.Choice
	c.Kind, c.N, c.P = kind, 2, p
	c.Node, c.Peer, c.Msg, c.Op, c.Attempt = m.From, m.To, m.Kind, m.Op, m.Attempt
	if s, ok := ch.(*sim.Stamper); ok {
		return s.Ask(&c) == 1 // the engine's own: no copy of c
	}
	return ch.Choose(c) == 1
}

// jitter asks the extra delay of one copy of m (copy 0 is the message, 1
// its duplicate: two decisions, each with its own key).
func jitter(ch sim.Chooser, l *Link, m *sim.Message, copy uint8) sim.Time {
	if l.Jitter <= 0 {
		return 0
	}
	return askJitter(ch, l, m, copy)
}

func askJitter(ch sim.Chooser, l *Link, m *sim.Message, copy uint8) sim.Time {
	var c sim.Choice // field by field, as in ask
	c.Kind, c.N, c.Copy = sim.ChoiceJitter, int32(l.Jitter)+1, copy
	c.Node, c.Peer, c.Msg, c.Op, c.Attempt = m.From, m.To, m.Kind, m.Op, m.Attempt
	if s, ok := ch.(*sim.Stamper); ok {
		return sim.Time(s.Ask(&c))
	}
	return sim.Time(ch.Choose(c))
}

// Transmit implements sim.Network. The choices are asked in a fixed order —
// the link kinds in sim's table order (loss, duplicate, slow, late), then
// jitter per copy — so a list of answers (an explored schedule) means the
// same thing on every machine; a random run answers each by its identity,
// so there the order does not matter. A kind whose probability is 0 is not
// asked.
func (n *Network) Transmit(ch sim.Chooser, m *sim.Message, now sim.Time) sim.Fate {
	i := int(m.From)*n.n + int(m.To)
	l := &n.links[i]
	for _, w := range l.Partitions {
		if w.Contains(now) {
			return sim.Fate{Drop: sim.DropPartition}
		}
	}
	f := sim.Fate{Delay: l.Delay}
	kinds := n.kinds.LinkChoiceKinds()
	if n.asked != nil {
		kinds = n.asked[i] // the same kinds, in the same order, less those at 0
	}
	for _, k := range kinds {
		p := l.Probability[k]
		if p <= 0 || !ask(ch, k, p, m) {
			continue
		}
		switch n.kinds.OnLink(k) {
		case sim.LinkDrop:
			return sim.Fate{Drop: sim.DropLoss}
		case sim.LinkCopy:
			f.Faults = f.Faults.With(k)
		case sim.LinkHold:
			f.Faults = f.Faults.With(k)
			f.Delay += l.Hold[k]
		}
	}
	f.Delay += jitter(ch, l, m, 0)
	if f.Duplicated() {
		f.DupDelay = l.Delay + jitter(ch, l, m, 1)
	}
	return f
}
