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
	// clk and tick stamp each event with the ticks elapsed since the run
	// began, on the run's virtual clock (real time less the time code was
	// busy, scaled): the time partitions are tested against, and every
	// delay, timeout and restart of the run waits on.
	clk  *vclock
	tick time.Duration
	seq  uint32
	// keyIDs maps an Idempotency-Key to the simulator's number for it,
	// as the client registers them; a key no client registered gets a
	// number of its own.
	keyIDs map[string]int64
	sent   attempts
}

// LastAttempt is the latest attempt of op the client sent (1 before any).
func (d *Decider) LastAttempt(op int32) int32 { return d.sent.of(op) }

// unregisteredKeys numbers the keys no client registered, above any key
// the simulator's clients make.
const unregisteredKeys = int64(1) << 60

// SetKeyID registers the simulator's number for an Idempotency-Key.
func (d *Decider) SetKeyID(key string, id int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.keyIDs == nil {
		d.keyIDs = map[string]int64{}
	}
	d.keyIDs[key] = id
}

// KeyID returns the simulator's number for an Idempotency-Key, 0 for none.
func (d *Decider) KeyID(key string) int64 {
	if key == "" {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.keyIDs == nil {
		d.keyIDs = map[string]int64{}
	}
	id, ok := d.keyIDs[key]
	if !ok {
		id = unregisteredKeys + int64(len(d.keyIDs))
		d.keyIDs[key] = id
	}
	return id
}

// NewDecider returns a Decider for a scenario's configuration.
func NewDecider(topo *sim.Topology, net *network.Network, ch sim.Chooser, rec sim.Recorder) *Decider {
	return &Decider{topo: topo, net: net, ch: ch, rec: rec, clk: newClock(), tick: time.Millisecond}
}

// Fate is what the fault layer does to one message.
type Fate struct {
	Drop      bool
	Duplicate bool
	Slow      bool
	Late      bool
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
	link := d.net.LinkAt(m.From, m.To) // a copy: the decider only reads it
	l := &link
	now := d.now()
	for _, w := range l.Partitions {
		if w.Contains(now) {
			d.record(sim.Event{Kind: sim.EvDrop, Node: m.From, Peer: m.To, Reason: sim.DropPartition, Msg: m})
			return Fate{Drop: true}
		}
	}
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
	if d.fault(sim.ChoiceLate, l.Probability[sim.ChoiceLate], &m) {
		f.Late = true
		f.Delay += l.Hold[sim.ChoiceLate]
		d.record(sim.Event{Kind: sim.EvLate, Node: m.From, Peer: m.To, Msg: m})
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
	crash, _ := d.Point(node, p, m)
	return crash
}

// Point decides what happens to node at crash point p while it handles m,
// as sim.Context.CrashPoint does: a crash (if the node's crash probability
// is not zero), else a pause of the returned ticks (if its pause
// probability is not zero). Each is recorded.
func (d *Decider) Point(node sim.NodeID, p sim.PointID, m sim.Message) (crash bool, pause sim.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	spec := &d.topo.Nodes[node]
	if !spec.Crashable {
		return false, 0
	}
	c := sim.Choice{N: 2, Node: node, Peer: sim.NoNode, Point: p, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}
	if spec.CrashProbability > 0 {
		c.Kind, c.P = sim.ChoiceCrash, spec.CrashProbability
		if d.choose(c) != 0 {
			d.record(sim.Event{Kind: sim.EvCrash, Node: node, Peer: sim.NoNode, Label: uint16(p), Msg: m})
			return true, 0
		}
	}
	if spec.PauseProbability > 0 {
		c.Kind, c.P = sim.ChoicePause, spec.PauseProbability
		if d.choose(c) != 0 {
			pause = max(spec.PauseFor, 1)
			d.record(sim.Event{Kind: sim.EvPause, Node: node, Peer: sim.NoNode, Label: uint16(p),
				Msg: sim.Message{Op: m.Op, Attempt: m.Attempt, Value: int64(pause)}})
		}
	}
	return false, pause
}

// Preempt decides whether the reply m of a store node to its caller is
// held back so that other handlers run first, as the simulator asks on
// every reply of a store node — with probability 0 too, so a plan from
// explore, whose interleavings are not in the profile, is replayed; a
// preempt is recorded.
func (d *Decider) Preempt(m sim.Message) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	spec := &d.topo.Nodes[m.From]
	if !spec.Store {
		return false
	}
	c := sim.Choice{Kind: sim.ChoicePreempt, N: 2, P: spec.PreemptProbability, Node: m.From, Peer: m.To, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}
	if d.choose(c) == 0 {
		return false
	}
	d.record(sim.Event{Kind: sim.EvPreempt, Node: m.From, Peer: m.To, Msg: m})
	return true
}

// Begin marks the start of the run's time: the client's first operation
// starts now, and every event is stamped from here.
func (d *Decider) Begin() { d.clk.begin() }

// Elapsed is the run's virtual time since Begin (real time less the time
// code was busy).
func (d *Decider) Elapsed() time.Duration { return d.clk.now() }

// SleepUntil waits until the run's virtual offset at; false when a or b
// (either may be nil) is closed first.
func (d *Decider) SleepUntil(at time.Duration, a, b <-chan struct{}) bool {
	return d.clk.sleepUntil(at, a, b)
}

// now is the run's virtual time in ticks, marked on the clock.
func (d *Decider) now() sim.Time { return sim.Time(d.clk.stamp() / d.tick) }

// Record records an event that is not a decision: a delivery, a drop
// because the receiver is down, an effect, an outcome, a restart.
func (d *Decider) Record(e sim.Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record(e)
}

func (d *Decider) record(e sim.Event) {
	e.At = d.now()
	e.Seq = d.seq
	d.seq++
	if d.rec != nil {
		d.rec.Record(&e)
	}
}
