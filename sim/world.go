package sim

import "fmt"

// Fate is the network's answer for one send: whether it arrives, when, and
// whether a second copy arrives too.
type Fate struct {
	Delay    Time // delay of the first copy
	DupDelay Time // delay of the second copy, if Faults holds ChoiceDuplicate
	// Faults is the link faults that hit the message and still let it
	// through: a copy kind (duplicate: a second copy is delivered) and the
	// hold kinds (slow, late) whose holds Delay includes.
	Faults KindSet
	Drop   DropReason // non-zero: the message is not delivered
	// Four fields, so that a Fate lives in registers (a wider struct is
	// spilled, and its byte-wise stores then read back whole stall on
	// store forwarding in the send path).
}

// Duplicated reports whether a second copy is delivered.
func (f Fate) Duplicated() bool { return f.Faults.Has(ChoiceDuplicate) }

// Network decides the fate of every send. Every random part of that
// decision must be asked of the Chooser.
type Network interface {
	Transmit(ch Chooser, m *Message, now Time) Fate
}

// Default budgets of a run.
const (
	DefaultMaxEvents = 200_000
	DefaultMaxTime   = Time(3_600_000) // one virtual hour
	MaxEventBudget   = 1_000_000_000   // the largest event budget a run accepts
)

// Config is everything a World needs. Topology, Nodes and Network are
// shared, read-only, by every world built from the same Config.
type Config struct {
	Topology  *Topology
	Nodes     []Node // behaviours, parallel to Topology.Nodes
	Network   Network
	Observe   Observation
	Ops       int       // operations numbered 1..Ops
	Semantics Semantics // the promise the checker judges
	MaxEvents int       // trace events before the run is cut; 0 = DefaultMaxEvents
	MaxTime   Time      // virtual time before the run is cut; 0 = DefaultMaxTime
	// FaultsUntil, when positive, ends the run's fault phase at that
	// virtual time: from then on every fault choice (loss, duplicate,
	// slow, crash, pause, late) takes its fault-free alternative without
	// asking the Chooser — a pause or a crash already under way still runs
	// its course — and the run enters its liveness phase (liveness.go).
	FaultsUntil Time
	// Settle bounds the liveness phase: with FaultsUntil, the run is cut
	// at FaultsUntil+Settle (or its MaxTime, if sooner) and its liveness
	// verdict says whether it finished by then. 0 = no bound of its own.
	Settle Time
	// Invariants returns fresh scenario-specific invariants for a new
	// world; nil means none.
	Invariants func() []Invariant
	// Metrics returns fresh metrics for a new world; nil means none.
	Metrics func() []Metric
}

// Validate reports a programmer error in the configuration.
func (c *Config) Validate() error {
	if c.Topology == nil || len(c.Topology.Nodes) == 0 {
		return fmt.Errorf("sim: config has no topology")
	}
	if len(c.Nodes) != len(c.Topology.Nodes) {
		return fmt.Errorf("sim: %d behaviours for %d nodes", len(c.Nodes), len(c.Topology.Nodes))
	}
	if len(c.Topology.Nodes) >= int(NoNode) {
		return fmt.Errorf("sim: too many nodes (%d)", len(c.Topology.Nodes))
	}
	if c.Network == nil {
		return fmt.Errorf("sim: config has no network")
	}
	if c.Ops < 0 {
		return fmt.Errorf("sim: negative operation count %d", c.Ops)
	}
	if c.MaxEvents < 0 || c.MaxEvents > MaxEventBudget {
		return fmt.Errorf("sim: event budget %d outside [0, %d]", c.MaxEvents, MaxEventBudget)
	}
	if c.MaxTime < 0 {
		return fmt.Errorf("sim: negative time budget %d", c.MaxTime)
	}
	if c.FaultsUntil < 0 || c.Settle < 0 || (c.Settle > 0 && c.FaultsUntil == 0) {
		return fmt.Errorf("sim: liveness phase: faults until %d, settle %d (settle needs the end of the faults)", c.FaultsUntil, c.Settle)
	}
	if n := len(c.Observe.Sinks); n > MaxObservedSinks {
		return fmt.Errorf("sim: %d observed sinks, at most %d", n, MaxObservedSinks)
	}
	return nil
}

// End says how a run ended.
type End uint8

// How a run can end.
const (
	Running     End = iota // not ended yet
	Quiescent              // nothing left to happen: finished
	EventBudget            // cut by the event budget: unfinished
	TimeBudget             // cut by the virtual-time budget: unfinished
)

// String describes the end.
func (e End) String() string {
	switch e {
	case Running:
		return "running"
	case Quiescent:
		return "finished"
	case EventBudget:
		return "event budget exhausted"
	case TimeBudget:
		return "time budget exhausted"
	}
	return "?"
}

type nodeState struct {
	tables      []Table
	down        bool
	incarnation uint32
	handled     int32 // deliveries handled, all incarnations
	paused      bool  // frozen by a pause until resumeAt (see pause.go)
	resumeAt    Time
	held        []heldAction // what the paused handler did after its pause point
}

// World is one running simulation. It is single-threaded and
// deterministic: the same Config and the same Chooser answers give the same
// trace, byte for byte.
type World struct {
	cfg     *Config
	chooser Chooser
	stamp   Stamper   // what the network and crash points ask: stamps keys, asks chooser
	names   *nameKeys // the keys of the topology's names, for the digest
	rec     Recorder

	now     Time
	seq     uint64
	msgID   uint32
	events  uint32 // trace events so far
	q       queue
	nodes   []nodeState
	checker Checker
	kinds   *Registry // the topology's kinds (never nil)
	invs    []Invariant
	metrics []Metric
	digest  Digest
	end     End
	// noDigest skips folding the digest (Runs without SetDigest(true)).
	noDigest bool
	// quiet says that nothing but the checker reads the trace (Runs
	// without the digest, no recorder, invariant or metric): the hot
	// events are then counted and handed to the part of Checker.Record
	// that reads them, not built, and those the checker ignores
	// (Checker.Ignores) are only counted.
	quiet bool

	ctx     Context
	current item // the item being dispatched
	scratch Event
	out     Message // the message being transmitted
	fpBuf   []byte  // scratch for Fingerprint
	fpOrder []int32 // scratch for Fingerprint
}

// NewWorld builds a world at time 0 with every node scheduled to start.
// rec may be nil; the checker and the digest always see the trace.
func NewWorld(cfg *Config, ch Chooser, rec Recorder) (*World, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	w := &World{cfg: cfg, chooser: ch, rec: rec, digest: NewDigest()}
	w.ctx.w = w
	w.stamp.w = w
	w.names = cfg.Topology.keys()
	w.checker = *NewChecker(cfg.Observe, cfg.Ops)
	w.kinds = cfg.Topology.Registry()
	w.checker.kinds = w.kinds
	if cfg.Invariants != nil {
		w.invs = cfg.Invariants()
	}
	if cfg.Metrics != nil {
		w.metrics = cfg.Metrics()
	}
	w.nodes = make([]nodeState, len(cfg.Topology.Nodes))
	for i := range w.nodes {
		w.nodes[i].tables = make([]Table, len(cfg.Topology.Nodes[i].Tables))
		w.scheduleNode(0, itemStart, NodeID(i))
	}
	return w, nil
}

// Stamper is the Chooser the world hands to the network and asks at
// crash points: it stamps every choice with the key of its identity by
// names (Topology.ChoiceKey) and passes it on to the world's chooser.
//
// Besides Choose (the Chooser by value) it has Ask, which takes the choice
// by pointer: a network that finds a *Stamper behind its Chooser builds
// each choice in its own frame and hands it over without a copy (a choice
// passed by value through an interface is built once and copied once, and
// the copy reads back, whole, bytes just written one by one: a stall on
// store forwarding for every draw of a seeded run).
type Stamper struct{ w *World }

// Choose implements Chooser.
func (s *Stamper) Choose(c Choice) int { return s.Ask(&c) }

// Ask stamps c's key into it and answers it. c does not escape.
func (s *Stamper) Ask(c *Choice) int {
	if c.Kind.IsFault() && s.w.faultsOver() {
		return 0 // the liveness phase: no more faults, nothing asked
	}
	c.Key = s.w.names.choiceKey(c)
	if r, ok := s.w.chooser.(*Random); ok {
		return r.choose(c) // a seeded run: no second interface call, no copy
	}
	return s.w.chooser.Choose(*c)
}

// SetChooser replaces the chooser; explorers use it between steps.
func (w *World) SetChooser(ch Chooser) { w.chooser = ch }

// SetRecorder replaces the extra recorder (nil for none).
func (w *World) SetRecorder(rec Recorder) { w.rec = rec }

// Now returns the virtual time.
func (w *World) Now() Time { return w.now }

// Ended returns how the run ended, or Running.
func (w *World) Ended() End { return w.end }

// Checker returns the world's checker (read-only use).
func (w *World) Checker() *Checker { return &w.checker }

// Digest returns the digest of the trace so far.
func (w *World) Digest() Digest { return w.digest }

// Events returns the number of trace events so far.
func (w *World) Events() int { return int(w.events) }

// Config returns the world's configuration.
func (w *World) Config() *Config { return w.cfg }

// schedule queues it (its seq is the world's next).
func (w *World) schedule(it item) {
	it.ord = order(it.urgent(), w.seq)
	w.seq++
	w.q.push(it)
}

// queueAt queues an item at time at and returns it for the caller to
// fill (kind, node, incarnation, message); see queue.place.
func (w *World) queueAt(at Time, urgent bool) *item {
	seq := w.seq
	w.seq++
	return w.q.place(at, order(urgent, seq))
}

// scheduleNode queues an item of kind for node at time at.
func (w *World) scheduleNode(at Time, kind itemKind, node NodeID) {
	it := w.queueAt(at, false)
	it.kind, it.node = kind, node
}

func (w *World) maxEvents() uint32 {
	if w.cfg.MaxEvents > 0 {
		return uint32(w.cfg.MaxEvents)
	}
	return DefaultMaxEvents
}

// faultsOver reports whether the run's faults have stopped: at
// Config.FaultsUntil, or, in a swarm run without one, once it has used
// half its time budget (SwarmFaultsUntil) or half its event budget.
func (w *World) faultsOver() bool {
	if u := w.cfg.FaultsUntil; u > 0 {
		return w.now >= u
	}
	ch := w.chooser
	if r, ok := ch.(*Recording); ok {
		ch = r.Inner // a run that records its faults (runs.Execute)
	}
	if _, ok := ch.(*Swarm); ok {
		return w.now >= SwarmFaultsUntil(w.cfg) || w.events >= w.maxEvents()/2
	}
	return false
}

func (w *World) maxTime() Time {
	limit := DefaultMaxTime
	if w.cfg.MaxTime > 0 {
		limit = w.cfg.MaxTime
	}
	if w.cfg.FaultsUntil > 0 && w.cfg.Settle > 0 {
		limit = min(limit, w.cfg.FaultsUntil+w.cfg.Settle)
	}
	return limit
}

// Step processes the next scheduled item. It returns false once the run
// has ended (quiescent or out of budget).
func (w *World) Step() bool {
	if w.end != Running {
		return false
	}
	if w.q.len() == 0 {
		w.end = Quiescent
		return false
	}
	if w.events >= w.maxEvents() {
		w.end = EventBudget
		return false
	}
	if w.q.peek().at > w.maxTime() {
		w.end = TimeBudget
		return false
	}
	it := &w.current
	w.q.popInto(it)
	w.now = it.at
	w.dispatch(it)
	return true
}

// Run steps the world until it ends and returns the outcome.
func (w *World) Run() *Outcome {
	for w.Step() {
	}
	return w.Outcome()
}

func (w *World) dispatch(it *item) {
	ns := &w.nodes[it.node]
	node := w.cfg.Nodes[it.node]
	w.ctx.node = it.node
	switch it.kind {
	case itemStart:
		node.Start(&w.ctx)
	case itemRestart:
		ns.down = false
		e := w.event(EvRestart, it.node, NoNode)
		w.emit(e)
		node.Start(&w.ctx)
	case itemResume:
		w.resume(it.node)
	case itemDeliver:
		if ns.paused {
			w.postpone(it)
			return
		}
		if ns.down {
			e := w.event(EvDrop, it.msg.From, it.node)
			e.Reason = DropDown
			e.Msg = it.msg
			w.emit(e)
			return
		}
		ns.handled++
		if w.quiet {
			w.events++
			w.checker.delivered(it.node, &it.msg)
		} else {
			e := w.event(EvDeliver, it.node, it.msg.From)
			e.Msg = it.msg
			w.emit(e)
		}
		node.Receive(&w.ctx, it.msg)
	case itemTimer:
		if ns.down || it.incarnation != ns.incarnation {
			return // the timer died with the incarnation that set it
		}
		if ns.paused {
			w.postpone(it)
			return
		}
		if w.quiet {
			w.events++ // Checker.Ignores(EvTimerFire)
		} else {
			e := w.event(EvTimerFire, it.node, NoNode)
			e.Label = uint16(it.msg.Kind)
			e.Msg = it.msg
			w.emit(e)
		}
		var t Timer // field by field: a literal is built aside and copied whole (see network's ask)
		t.Kind, t.Op, t.Attempt, t.Key, t.Phase = TimerKind(it.msg.Kind), it.msg.Op, it.msg.Attempt, it.msg.Key, it.msg.Status
		node.Timer(&w.ctx, t)
	}
}

// event resets the scratch event; the caller fills it and calls emit.
func (w *World) event(kind EventKind, node, peer NodeID) *Event {
	w.scratch = Event{At: w.now, Kind: kind, Node: node, Peer: peer}
	return &w.scratch
}

func (w *World) emit(e *Event) {
	e.Seq = w.events
	w.events++
	w.checker.Record(e)
	for _, inv := range w.invs {
		inv.Record(e)
	}
	for _, m := range w.metrics {
		m.Record(e)
	}
	if !w.noDigest {
		w.digest = w.digest.add(w.names, e)
	}
	if w.rec != nil {
		w.rec.Record(e)
	}
}

func (w *World) crash(node NodeID, point PointID, m *Message) {
	ns := &w.nodes[node]
	spec := &w.cfg.Topology.Nodes[node]
	e := w.event(EvCrash, node, NoNode)
	e.Label = uint16(point)
	if m != nil {
		e.Msg.Op, e.Msg.Attempt = m.Op, m.Attempt
	}
	w.emit(e)
	ns.down = true
	ns.incarnation++
	for i := range ns.tables {
		if !spec.Tables[i].Durable {
			ns.tables[i].Clear()
		}
	}
	w.scheduleNode(w.now+spec.RestartAfter, itemRestart, node)
}
