package sim

import "math/rand/v2"

// ChoiceKind says what a Choice decides.
type ChoiceKind uint8

// The kinds of choice. Loss, Duplicate, Slow and Crash are faults: they have
// two alternatives, 0 (the fault-free default) and 1 (the fault), and cost 1
// in a fault budget. Jitter is not a fault: it picks one of N extra delays.
const (
	ChoiceLoss      ChoiceKind = iota + 1 // drop this message
	ChoiceDuplicate                       // deliver this message twice
	ChoiceSlow                            // delay this message past the timers waiting for it
	ChoiceCrash                           // crash this node at this crash point
	ChoiceJitter                          // extra delay in ticks, 0..N-1
)

var choiceKindNames = [...]string{"", "loss", "duplicate", "slow", "crash", "jitter"}

// String returns the kind's name as used in fault plans ("loss", "crash"…).
func (k ChoiceKind) String() string {
	if int(k) < len(choiceKindNames) {
		return choiceKindNames[k]
	}
	return "unknown"
}

// ParseChoiceKind is the inverse of String.
func ParseChoiceKind(s string) (ChoiceKind, bool) {
	for i, n := range choiceKindNames {
		if i > 0 && n == s {
			return ChoiceKind(i), true
		}
	}
	return 0, false
}

// IsFault reports whether choosing a non-zero alternative is a fault.
func (k ChoiceKind) IsFault() bool { return k >= ChoiceLoss && k <= ChoiceCrash }

// A Choice is one nondeterministic decision. Its identity (Kind, Node, Peer,
// Msg, Op, Attempt, Point) names what the decision hits, so a fault plan can
// say "drop the response to op-3, attempt 1" rather than "the 17th choice".
type Choice struct {
	Kind    ChoiceKind
	N       int32   // number of alternatives, ≥ 1
	P       float64 // probability of the fault alternative (faults only)
	Node    NodeID  // the sender of the message, or the crashing node
	Peer    NodeID  // the receiver of the message; NoNode for crashes
	Msg     MsgKind // message kind (messages only)
	Op      OpID
	Attempt int32
	Point   PointID // crash point (crashes only)
}

// A Chooser answers every nondeterministic decision of a run with an
// alternative in [0, c.N). Random sweeps, replay of a fault plan, exhaustive
// exploration and rapid's shrinking are all Choosers; the engine has one
// code path for all of them.
type Chooser interface {
	Choose(c *Choice) int
}

// Random is a Chooser driven by a seeded PCG generator and the
// probabilities carried by each Choice. Its zero value is not usable; call
// NewRandom.
type Random struct {
	rng rand.Rand
	src rand.PCG
}

// NewRandom returns a Random chooser for seed. The same seed always yields
// the same answers to the same sequence of choices.
func NewRandom(seed uint64) *Random {
	r := &Random{}
	r.src.Seed(seed, seed^0x9e3779b97f4a7c15)
	r.rng = *rand.New(&r.src)
	return r
}

// Choose implements Chooser. A fault with probability 0 consumes no random
// number, so adding a fault kind with zero probability changes nothing.
func (r *Random) Choose(c *Choice) int {
	if c.Kind.IsFault() {
		switch {
		case c.P <= 0:
			return 0
		case c.P >= 1:
			return 1
		case r.rng.Float64() < c.P:
			return 1
		}
		return 0
	}
	if c.N <= 1 {
		return 0
	}
	return r.rng.IntN(int(c.N))
}

// Defaults is the Chooser that always takes alternative 0: no faults, no
// jitter. It is the fault-free schedule.
type Defaults struct{}

// Choose implements Chooser.
func (Defaults) Choose(*Choice) int { return 0 }
