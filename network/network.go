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

// Link is one direction between two nodes. Probabilities are per message.
type Link struct {
	LossProbability      float64  // the message is dropped
	DuplicateProbability float64  // a second copy is delivered
	SlowProbability      float64  // the message takes SlowDelay extra: a retry can overtake it
	Delay                sim.Time // base one-way delay
	Jitter               sim.Time // extra delay drawn uniformly from [0, Jitter]
	SlowDelay            sim.Time // extra delay of a slow message
	LateProbability      float64  // the message is held LateDelay: it arrives past a horizon
	LateDelay            sim.Time // extra delay of a late message
	Partitions           []Window // while one is open, every message is dropped
}

// Validate reports the first field out of range.
func (l *Link) Validate() error {
	for _, p := range []struct {
		name string
		v    float64
	}{{sim.ChoiceLoss.String(), l.LossProbability}, {sim.ChoiceDuplicate.String(), l.DuplicateProbability}, {sim.ChoiceSlow.String(), l.SlowProbability}, {sim.ChoiceLate.String(), l.LateProbability}} {
		if !(p.v >= 0 && p.v <= 1) {
			return fmt.Errorf("network: %s probability %v is outside [0,1]", p.name, p.v)
		}
	}
	if l.Delay < 0 || l.Jitter < 0 || l.SlowDelay < 0 || l.LateDelay < 0 {
		return fmt.Errorf("network: negative delay (delay %d, jitter %d, slow %d, late %d)", l.Delay, l.Jitter, l.SlowDelay, l.LateDelay)
	}
	if l.Delay > MaxDelay || l.Jitter > MaxDelay || l.SlowDelay > MaxDelay || l.LateDelay > MaxDelay {
		return fmt.Errorf("network: delay above %d ticks (delay %d, jitter %d, slow %d, late %d)", MaxDelay, l.Delay, l.Jitter, l.SlowDelay, l.LateDelay)
	}
	for _, w := range l.Partitions {
		if w.To < w.From {
			return fmt.Errorf("network: partition window [%d,%d) ends before it starts", w.From, w.To)
		}
	}
	return nil
}

// SetProbability sets the probability of the message fault kind k
// (loss, duplicate, slow or late) on the link; other kinds are not link faults.
func (l *Link) SetProbability(k sim.ChoiceKind, p float64) {
	switch k {
	case sim.ChoiceLoss:
		l.LossProbability = p
	case sim.ChoiceDuplicate:
		l.DuplicateProbability = p
	case sim.ChoiceSlow:
		l.SlowProbability = p
	case sim.ChoiceLate:
		l.LateProbability = p
	}
}

// Probability returns the probability of the message fault kind k on the
// link (0 for kinds that are not link faults).
func (l *Link) Probability(k sim.ChoiceKind) float64 {
	switch k {
	case sim.ChoiceLoss:
		return l.LossProbability
	case sim.ChoiceDuplicate:
		return l.DuplicateProbability
	case sim.ChoiceSlow:
		return l.SlowProbability
	case sim.ChoiceLate:
		return l.LateProbability
	}
	return 0
}

// Network is a full mesh of directed links between n nodes.
type Network struct {
	n     int
	links []Link
}

// New returns a network of n nodes whose links are all perfect.
func New(n int) *Network {
	return &Network{n: n, links: make([]Link, n*n)}
}

// Link returns the link from → to for configuration.
func (n *Network) Link(from, to sim.NodeID) *Link {
	return &n.links[int(from)*n.n+int(to)]
}

// Validate checks every link.
func (n *Network) Validate() error {
	for i := range n.links {
		if err := n.links[i].Validate(); err != nil {
			return fmt.Errorf("link %d→%d: %w", i/n.n, i%n.n, err)
		}
	}
	return nil
}

// choose asks the fault of kind with probability p on m; a fault that
// cannot happen is not asked (small enough to inline: most links leave
// most kinds at 0, and a send checks four).
func choose(ch sim.Chooser, kind sim.ChoiceKind, p float64, m *sim.Message) bool {
	return p > 0 && ask(ch, kind, p, m)
}

func ask(ch sim.Chooser, kind sim.ChoiceKind, p float64, m *sim.Message) bool {
	c := sim.Choice{Kind: kind, N: 2, P: p, Node: m.From, Peer: m.To, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}
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
	c := sim.Choice{Kind: sim.ChoiceJitter, N: int32(l.Jitter) + 1, Node: m.From, Peer: m.To, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt, Copy: copy}
	return sim.Time(ch.Choose(c))
}

// Transmit implements sim.Network. The choices are asked in a fixed order —
// loss, duplicate, slow, late, then jitter per copy — so a list of answers (an
// explored schedule) means the same thing on every machine; a random run
// answers each by its identity, so there the order does not matter.
func (n *Network) Transmit(ch sim.Chooser, m *sim.Message, now sim.Time) sim.Fate {
	l := n.Link(m.From, m.To)
	for _, w := range l.Partitions {
		if w.Contains(now) {
			return sim.Fate{Drop: sim.DropPartition}
		}
	}
	if choose(ch, sim.ChoiceLoss, l.LossProbability, m) {
		return sim.Fate{Drop: sim.DropLoss}
	}
	f := sim.Fate{Delay: l.Delay}
	f.Duplicate = choose(ch, sim.ChoiceDuplicate, l.DuplicateProbability, m)
	if choose(ch, sim.ChoiceSlow, l.SlowProbability, m) {
		f.Slow = true
		f.Delay += l.SlowDelay
	}
	if choose(ch, sim.ChoiceLate, l.LateProbability, m) {
		f.Late = true
		f.Delay += l.LateDelay
	}
	f.Delay += jitter(ch, l, m, 0)
	if f.Duplicate {
		f.DupDelay = l.Delay + jitter(ch, l, m, 1)
	}
	return f
}
