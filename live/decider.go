package live

import (
	"sync"
	"time"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/sim"
)

// Decider is the fault layer's one source of decisions. It asks the
// simulator's Chooser — keyed random from --seed, or a scripted plan from
// --replay — exactly the choices the simulated network and crash points
// ask, with the same identity (kind, sender, receiver, message kind, op,
// attempt; node and crash point), stamped with the topology's ChoiceKey. A
// decision is a function of the seed and of that identity, never of wall
// time or of the order goroutines arrive in, so one seed hits the same
// messages in the simulator and here.
//
// It also records what happened, as trace events, into the checker that
// gives the verdict. It is safe for concurrent use.
type Decider struct {
	mu   sync.Mutex
	topo *sim.Topology
	net  *network.Network
	ch   sim.Chooser
	rec  sim.Recorder
	// start and tick stamp each event with the ticks elapsed since the
	// run began (real time, scaled): for the timeline, not the verdict.
	start time.Time
	tick  time.Duration
	seq   uint32
}

// NewDecider returns a Decider for a scenario's configuration.
func NewDecider(topo *sim.Topology, net *network.Network, ch sim.Chooser, rec sim.Recorder) *Decider {
	return &Decider{topo: topo, net: net, ch: ch, rec: rec, start: time.Now(), tick: time.Millisecond}
}

// Fate is what the fault layer does to one message.
type Fate struct {
	Drop      bool
	Duplicate bool
	Slow      bool
	Delay     sim.Time // base delay, jitter and slowness, in ticks
	DupDelay  sim.Time // delay of the duplicate
}

// choose asks one choice, stamped with its key. The caller holds mu.
func (d *Decider) choose(c sim.Choice) int {
	c.Key = d.topo.ChoiceKey(&c)
	return d.ch.Choose(c)
}

func (d *Decider) fault(kind sim.ChoiceKind, p float64, m *sim.Message) bool {
	if p <= 0 {
		return false
	}
	return d.choose(sim.Choice{Kind: kind, N: 2, P: p, Node: m.From, Peer: m.To, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}) == 1
}

func (d *Decider) jitter(l *network.Link, m *sim.Message, copy uint8) sim.Time {
	if l.Jitter <= 0 {
		return 0
	}
	return sim.Time(d.choose(sim.Choice{Kind: sim.ChoiceJitter, N: int32(l.Jitter) + 1, Node: m.From, Peer: m.To,
		Msg: m.Kind, Op: m.Op, Attempt: m.Attempt, Copy: copy}))
}

// Transmit decides the fate of message m as network.Network.Transmit
// does — loss, duplicate, slow, then jitter per copy — and records the send
// and the fault.
func (d *Decider) Transmit(m sim.Message) Fate {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record(sim.Event{Kind: sim.EvSend, Node: m.From, Peer: m.To, Msg: m})
	l := d.net.Link(m.From, m.To)
	if d.fault(sim.ChoiceLoss, l.Probability[sim.ChoiceLoss], &m) {
		d.record(sim.Event{Kind: sim.EvDrop, Node: m.From, Peer: m.To, Reason: sim.DropLoss, Msg: m})
		return Fate{Drop: true}
	}
	f := Fate{Delay: l.Delay}
	f.Duplicate = d.fault(sim.ChoiceDuplicate, l.Probability[sim.ChoiceDuplicate], &m)
	if d.fault(sim.ChoiceSlow, l.Probability[sim.ChoiceSlow], &m) {
		f.Slow = true
		f.Delay += l.Hold[sim.ChoiceSlow]
		d.record(sim.Event{Kind: sim.EvSlow, Node: m.From, Peer: m.To, Msg: m})
	}
	f.Delay += d.jitter(l, &m, 0)
	if f.Duplicate {
		f.DupDelay = l.Delay + d.jitter(l, &m, 1)
		d.record(sim.Event{Kind: sim.EvDuplicate, Node: m.From, Peer: m.To, Msg: m})
	}
	return f
}

// Crash decides whether node crashes at crash point p while it handles m,
// as sim.Context.CrashPoint does: only a crashable node with a crash
// probability offers the choice. A crash is recorded.
func (d *Decider) Crash(node sim.NodeID, p sim.PointID, m sim.Message) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	spec := &d.topo.Nodes[node]
	if !spec.Crashable || spec.CrashProbability <= 0 {
		return false
	}
	c := sim.Choice{Kind: sim.ChoiceCrash, N: 2, P: spec.CrashProbability, Node: node, Peer: sim.NoNode, Point: p,
		Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}
	if d.choose(c) == 0 {
		return false
	}
	d.record(sim.Event{Kind: sim.EvCrash, Node: node, Peer: sim.NoNode, Label: uint8(p), Msg: m})
	return true
}

// Record records an event that is not a decision: a delivery, a drop
// because the receiver is down, an effect, an outcome, a restart.
func (d *Decider) Record(e sim.Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record(e)
}

func (d *Decider) record(e sim.Event) {
	e.At = sim.Time(time.Since(d.start) / d.tick)
	e.Seq = d.seq
	d.seq++
	if d.rec != nil {
		d.rec.Record(&e)
	}
}
