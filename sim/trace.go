package sim

// EventKind says what a trace Event records.
type EventKind uint8

// The kinds of trace event.
const (
	EvSend               EventKind = iota + 1 // Node sent Msg to Peer
	EvDeliver                                 // Msg was delivered to Node (a handler invocation)
	EvDrop                                    // Msg from Node to Peer was dropped; Reason says why
	EvDuplicate                               // the network made a second copy of Msg
	EvSlow                                    // the network delayed Msg past its timers
	EvTimerFire                               // a timer of Node fired; Msg carries its payload
	EvCrash                                   // Node crashed at crash point Label
	EvRestart                                 // Node restarted with its durable tables only
	EvStoreGet                                // Node read Msg.Key from table Label; Found says if present
	EvStorePut                                // Node wrote Rec under Msg.Key into table Label
	EvStoreDelete                             // Node deleted Msg.Key from table Label
	EvEffect                                  // Node applied an effect of Msg.Op on sink Label
	EvOutcome                                 // Node (a client) accepted final result Msg.Value for Msg.Op
	EvPause                                   // Node froze at crash point Label for Msg.Value ticks, keeping its state
	EvResume                                  // Node woke up from a pause: its held actions, queued deliveries and timers follow
	EvLate                                    // the network held Msg past a horizon (the late fault)
	EvPreempt                                 // store Node's reply Msg to Peer is held back: other handlers run first
	numBuiltinEventKinds                      // one past the last: a new kind goes above this line
)

// LabelNames says which of a topology's name lists an event's Label is a
// number in: the digest keys the label by that name, never by the number
// registration order gave it.
type LabelNames uint8

// What an event's Label indexes.
const (
	LabelNone  LabelNames = iota // the event carries no label (Label is 0)
	LabelTable                   // a table of the event's node
	LabelSink                    // an observed sink
	LabelPoint                   // a crash point
	LabelTimer                   // a timer kind
)

// RenderClass is how the views draw an event kind: every renderer (the
// text trace, the TUI, the SVG and Mermaid diagrams) switches on the class,
// never on the kind, and names the kind by its label, so a kind added to
// the table renders everywhere in its class's form.
type RenderClass uint8

// The render classes.
const (
	ClassNone     RenderClass = iota
	ClassSend                 // a message leaves Node for Peer
	ClassDeliver              // a message reaches Node from Peer
	ClassDrop                 // a message from Node to Peer is lost; Reason says why
	ClassInFlight             // the network does something to a message from Node to Peer on its way (duplicate, slow, late, preempt)
	ClassTimer                // a timer of Node fires
	ClassStop                 // Node stops at crash point Label (crash, pause)
	ClassStart                // Node runs again (restart, resume)
	ClassStore                // Node reads, writes or deletes Msg.Key in table Label
	ClassEffect               // Node applies an effect on sink Label
	ClassOutcome              // a client accepts an operation's final result
	NumRenderClasses
)

// EventKindSpec describes one event kind: its name in traces, what its
// label names and how the views draw it.
type EventKindSpec struct {
	Name  string
	Label LabelNames
	// Class is how every view draws the kind.
	Class RenderClass
	// Fault is the choice kind whose fault the event records (the
	// checker's fault counts), 0 for none.
	Fault ChoiceKind
}

// eventKinds is the built-in table of event kinds, indexed by EventKind:
// one entry per kind, pause included, so no kind's label falls through to
// its number. A Registry value copies it and may extend its copy.
var eventKinds = []EventKindSpec{
	EvSend:        {Name: "send", Class: ClassSend},
	EvDeliver:     {Name: "deliver", Class: ClassDeliver},
	EvDrop:        {Name: "drop", Class: ClassDrop},
	EvDuplicate:   {Name: ChoiceDuplicate.String(), Fault: ChoiceDuplicate, Class: ClassInFlight},
	EvSlow:        {Name: ChoiceSlow.String(), Fault: ChoiceSlow, Class: ClassInFlight},
	EvTimerFire:   {Name: "timer", Label: LabelTimer, Class: ClassTimer},
	EvCrash:       {Name: ChoiceCrash.String(), Label: LabelPoint, Fault: ChoiceCrash, Class: ClassStop},
	EvRestart:     {Name: "restart", Class: ClassStart},
	EvStoreGet:    {Name: "get", Label: LabelTable, Class: ClassStore},
	EvStorePut:    {Name: "put", Label: LabelTable, Class: ClassStore},
	EvStoreDelete: {Name: "delete", Label: LabelTable, Class: ClassStore},
	EvEffect:      {Name: "effect", Label: LabelSink, Class: ClassEffect},
	EvOutcome:     {Name: "outcome", Class: ClassOutcome},
	EvPause:       {Name: ChoicePause.String(), Label: LabelPoint, Fault: ChoicePause, Class: ClassStop},
	EvResume:      {Name: "resume", Class: ClassStart},
	EvLate:        {Name: ChoiceLate.String(), Fault: ChoiceLate, Class: ClassInFlight},
	EvPreempt:     {Name: ChoicePreempt.String(), Fault: ChoicePreempt, Class: ClassInFlight},
}

// NumEventKinds is one past the largest built-in event kind (a Registry
// may have more).
const NumEventKinds = numBuiltinEventKinds

// Class is the built-in kind's render class (ClassNone for a kind a
// Registry added: ask the registry, Registry.EventSpec).
func (k EventKind) Class() RenderClass { return k.Spec().Class }

// Spec returns the built-in kind's table entry (a zero entry for a kind
// the built-in table lacks).
func (k EventKind) Spec() EventKindSpec {
	if k < NumEventKinds {
		return eventKinds[k]
	}
	return EventKindSpec{}
}

// String returns the event kind's name.
func (k EventKind) String() string {
	if k > 0 && k < NumEventKinds {
		return eventKinds[k].Name
	}
	return "unknown"
}

// DropReason says why a message was not delivered.
type DropReason uint8

// Reasons for EvDrop.
const (
	DropLoss      DropReason = iota + 1 // the link lost it (a chosen fault)
	DropPartition                       // a partition window cut the link
	DropDown                            // the receiver was crashed
)

var dropReasonNames = [...]string{"", ChoiceLoss.String(), "partition", "down"}

// String returns the reason's name.
func (r DropReason) String() string {
	if int(r) < len(dropReasonNames) {
		return dropReasonNames[r]
	}
	return "unknown"
}

// Event is one entry of the trace. It is a plain value; the trace is the
// single source of truth that checkers, reports, diagrams and the TUI read.
type Event struct {
	At     Time
	Seq    uint32 // position in the trace, 0-based
	Kind   EventKind
	Node   NodeID
	Peer   NodeID
	Reason DropReason // EvDrop
	Label  uint16     // table (store events), sink (effects), point (crashes), timer kind
	Found  bool       // EvStoreGet: the key was present; EvStoreDelete: the row expired
	Msg    Message    // the message, timer payload, or op/key of store and effect events
	Rec    Record     // EvStoreGet (when found) and EvStorePut
}

// A Recorder receives the trace as a stream, one event at a time. The
// event is only valid during the call; a recorder that keeps it copies it.
type Recorder interface {
	Record(e *Event)
}

// Trace is a Recorder that keeps every event.
type Trace struct {
	Events []Event
}

// Record implements Recorder.
func (t *Trace) Record(e *Event) { t.Events = append(t.Events, *e) }

// Digest is a stable 64-bit hash of a stream of events over a fixed field
// order, word at a time (multiply and xor-shift), the same on every machine
// and in every build: kinds enter it by the keys of their names (message and
// timer kinds, tables, sinks, crash points), never by the numbers their
// registration order gave them.
type Digest uint64

// DigestFormat is the version of the digest's format: what it folds and
// how. testdata/digests.txt records it; a pinned digest may change with an
// unchanged trace only in a commit that bumps it (TestPinnedDigests
// -rewrite refuses otherwise). 2: a pause's crash point by name.
const DigestFormat = 2

// NewDigest returns the digest of the empty trace.
func NewDigest() Digest { return Digest(0xcbf29ce484222325) }

func (d Digest) word(w uint64) Digest {
	h := (uint64(d) ^ w) * 0xff51afd7ed558ccd
	return Digest(h ^ h>>29)
}

// Add folds e, an event of a world of topology t, into the digest.
func (d Digest) Add(t *Topology, e *Event) Digest { return d.add(t.keys(), e) }

func (d Digest) add(k *nameKeys, e *Event) Digest {
	found := uint64(0)
	if e.Found {
		found = 1
	}
	// The name keys are xored into the words of small fields: as good as
	// words of their own (a collision needs one 64-bit key to equal another
	// xor a few field bits) at two multiplications less per event.
	d = d.word(uint64(e.At))
	d = d.word(uint64(e.Kind) | uint64(e.Node)<<8 | uint64(e.Peer)<<16 | uint64(e.Reason)<<24 | found<<40 ^ k.label(e))
	m := &e.Msg
	d = d.word(uint64(m.ID) | uint64(m.From)<<32 | uint64(m.To)<<40 ^ k.msgKind(e))
	d = d.word(uint64(uint32(m.Op)) | uint64(uint32(m.Attempt))<<32)
	d = d.word(uint64(m.Key))
	d = d.word(uint64(m.Payload))
	d = d.word(uint64(m.Value))
	d = d.word(uint64(uint32(m.Status)))
	r := &e.Rec
	d = d.word(uint64(uint32(r.State)) | uint64(uint32(r.Status))<<32)
	d = d.word(uint64(r.Value))
	d = d.word(uint64(r.Aux))
	d = d.word(uint64(r.At))
	return d
}

// label returns the key of the name e.Label stands for, by the event
// kind's entry in the table: a table, a sink, a crash point or a timer
// kind; a kind without a label (or an unknown kind) folds its number.
func (k *nameKeys) label(e *Event) uint64 {
	if e.Kind >= NumEventKinds {
		return uint64(e.Label)
	}
	switch eventKinds[e.Kind].Label {
	case LabelTable:
		if int(e.Node) < len(k.tables) {
			return keyAt(k.tables[e.Node], int(e.Label))
		}
		return unnamedKey(int(e.Label))
	case LabelSink:
		return keyAt(k.sinks, int(e.Label))
	case LabelPoint:
		return keyAt(k.points, int(e.Label))
	case LabelTimer:
		return keyAt(k.timers, int(e.Label))
	}
	return uint64(e.Label)
}

// msgKind returns the key of e.Msg.Kind's name: a timer kind for a timer
// event, a message kind otherwise (0 for none).
func (k *nameKeys) msgKind(e *Event) uint64 {
	switch {
	case e.Kind == EvTimerFire:
		return keyAt(k.timers, int(e.Msg.Kind))
	case e.Msg.Kind != 0:
		return keyAt(k.messages, int(e.Msg.Kind))
	}
	return 0
}

// DigestOf returns the digest of a whole trace of a world of topology t.
func DigestOf(t *Topology, events []Event) Digest {
	k := t.keys()
	d := NewDigest()
	for i := range events {
		d = d.add(k, &events[i])
	}
	return d
}

// Table is the table of a store event (Label).
func (e *Event) Table() TableID { return TableID(e.Label) }

// Sink is the sink of an EvEffect (Label).
func (e *Event) Sink() SinkID { return SinkID(e.Label) }

// Point is the crash point of an EvCrash or EvPause (Label).
func (e *Event) Point() PointID { return PointID(e.Label) }

// Timer is the timer kind of an EvTimerFire (Label).
func (e *Event) Timer() TimerKind { return TimerKind(e.Label) }
