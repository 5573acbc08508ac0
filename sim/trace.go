package sim

// EventKind says what a trace Event records.
type EventKind uint8

// The kinds of trace event.
const (
	EvSend        EventKind = iota + 1 // Node sent Msg to Peer
	EvDeliver                          // Msg was delivered to Node (a handler invocation)
	EvDrop                             // Msg from Node to Peer was dropped; Reason says why
	EvDuplicate                        // the network made a second copy of Msg
	EvSlow                             // the network delayed Msg past its timers
	EvTimerFire                        // a timer of Node fired; Msg carries its payload
	EvCrash                            // Node crashed at crash point Label
	EvRestart                          // Node restarted with its durable tables only
	EvStoreGet                         // Node read Msg.Key from table Label; Found says if present
	EvStorePut                         // Node wrote Rec under Msg.Key into table Label
	EvStoreDelete                      // Node deleted Msg.Key from table Label
	EvEffect                           // Node applied an effect of Msg.Op on sink Label
	EvOutcome                          // Node (a client) accepted final result Msg.Value for Msg.Op
	EvPause                            // Node froze at crash point Label for Msg.Value ticks, keeping its state
	EvResume                           // Node woke up from a pause: its held actions, queued deliveries and timers follow
)

var eventKindNames = [...]string{"", "send", "deliver", "drop", ChoiceDuplicate.String(), ChoiceSlow.String(), "timer", ChoiceCrash.String(), "restart", "get", "put", "delete", "effect", "outcome", ChoicePause.String(), "resume"}

// String returns the event kind's name.
func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
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
	Label  uint8      // table (store events), sink (effects), point (crashes), timer kind
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
// order, word at a time (multiply and xor-shift), the same on every machine.
type Digest uint64

// NewDigest returns the digest of the empty trace.
func NewDigest() Digest { return Digest(0xcbf29ce484222325) }

func (d Digest) word(w uint64) Digest {
	h := (uint64(d) ^ w) * 0xff51afd7ed558ccd
	return Digest(h ^ h>>29)
}

// Add folds e into the digest.
func (d Digest) Add(e *Event) Digest {
	found := uint64(0)
	if e.Found {
		found = 1
	}
	d = d.word(uint64(e.At))
	d = d.word(uint64(e.Kind) | uint64(e.Node)<<8 | uint64(e.Peer)<<16 | uint64(e.Reason)<<24 | uint64(e.Label)<<32 | found<<40)
	m := &e.Msg
	d = d.word(uint64(m.ID) | uint64(m.From)<<32 | uint64(m.To)<<40 | uint64(m.Kind)<<48)
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

// DigestOf returns the digest of a whole trace.
func DigestOf(events []Event) Digest {
	d := NewDigest()
	for i := range events {
		d = d.Add(&events[i])
	}
	return d
}
