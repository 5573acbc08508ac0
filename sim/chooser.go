package sim

// ChoiceKind says what a Choice decides.
type ChoiceKind uint8

// The kinds of choice. Loss, Duplicate, Slow, Crash, Pause and Late are faults: they have
// two alternatives, 0 (the fault-free default) and 1 (the fault), and cost 1
// in a fault budget. Jitter is not a fault: it picks one of N extra delays.
// Preempt is an interleaving (docs/concurrency.md): two alternatives like a
// fault, drawn with a probability by random runs and named in plans like a
// fault, but it costs 1 in the explorer's preemption budget, not its fault
// budget.
const (
	ChoiceLoss            ChoiceKind = iota + 1 // drop this message
	ChoiceDuplicate                             // deliver this message twice
	ChoiceSlow                                  // delay this message past the timers waiting for it
	ChoiceCrash                                 // crash this node at this crash point
	ChoiceJitter                                // extra delay in ticks, 0..N-1
	ChoicePause                                 // freeze this node at this crash point, keeping its state
	ChoiceLate                                  // hold this message past a horizon (the late-ms setting)
	ChoicePreempt                               // deschedule the handler waiting for this store reply: others run first
	numBuiltinChoiceKinds                       // one past the last: a new kind goes above this line
)

// The name, label and shape of each kind are in faults.go.

// A Choice is one nondeterministic decision. Its identity (Kind, Node, Peer,
// Msg, Op, Attempt, Point, Copy) names what the decision hits, so a fault
// plan can say "drop the response to op-3, attempt 1" rather than "the 17th
// choice", and a Random chooser decides it by its identity, not by its
// position in the run.
type Choice struct {
	Kind    ChoiceKind
	N       int32   // number of alternatives, ≥ 1
	P       float64 // probability of the fault alternative (faults only)
	Node    NodeID  // the sender of the message, or the crashing node
	Peer    NodeID  // the receiver of the message; NoNode for crashes
	Msg     MsgKind // message kind (messages; the message being handled for crashes)
	Op      OpID
	Attempt int32
	Point   PointID // crash point (crashes only)
	Copy    uint8   // jitter only: 0 for the first copy of a message, 1 for its duplicate
	// Key is the identity by names (Topology.ChoiceKey), stamped by the
	// world before any Chooser sees the choice.
	Key uint64
}

// A Chooser answers every nondeterministic decision of a run with an
// alternative in [0, c.N). Random sweeps, replay of a fault plan, exhaustive
// exploration and rapid's shrinking are all Choosers; the engine has one
// code path for all of them.
type Chooser interface {
	Choose(c Choice) int
}

// Defaults is the Chooser that always takes alternative 0: no faults, no
// jitter. It is the fault-free schedule.
type Defaults struct{}

// Choose implements Chooser.
func (Defaults) Choose(Choice) int { return 0 }

// splitmix derives a well-mixed 64-bit value from a seed, so that nearby
// seeds (1, 2, 3…) give unrelated keys.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Sequence is a Chooser that answers choices from a fixed list, in order,
// then 0. It replays a path found by the explorer.
type Sequence struct {
	Answers []int
	next    int
}

// Choose implements Chooser.
func (s *Sequence) Choose(c Choice) int {
	if s.next >= len(s.Answers) {
		return 0
	}
	v := s.Answers[s.next]
	s.next++
	if v < 0 || v >= int(c.N) {
		return 0
	}
	return v
}
