package sim

import "math/rand/v2"

// ChoiceKind says what a Choice decides.
type ChoiceKind uint8

// The kinds of choice. Loss, Duplicate, Slow, Crash and Pause are faults: they have
// two alternatives, 0 (the fault-free default) and 1 (the fault), and cost 1
// in a fault budget. Jitter is not a fault: it picks one of N extra delays.
const (
	ChoiceLoss      ChoiceKind = iota + 1 // drop this message
	ChoiceDuplicate                       // deliver this message twice
	ChoiceSlow                            // delay this message past the timers waiting for it
	ChoiceCrash                           // crash this node at this crash point
	ChoiceJitter                          // extra delay in ticks, 0..N-1
	ChoicePause                           // freeze this node at this crash point, keeping its state
)

// The name, label and shape of each kind are in faults.go.

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
	Choose(c Choice) int
}

// Random is a Chooser driven by seeded PCG generators and the
// probabilities carried by each Choice. Faults and jitter draw from two
// streams derived from one seed, so a replay that takes the faults from a
// plan and the jitter from the same seed reproduces the run exactly. Its
// zero value is not usable; call NewRandom.
type Random struct {
	faults rand.Rand
	jitter Jitter
}

// NewRandom returns a Random chooser for seed. The same seed always yields
// the same answers to the same sequence of choices.
func NewRandom(seed uint64) *Random {
	r := &Random{}
	src := &rand.PCG{}
	src.Seed(splitmix(seed), splitmix(seed^0xfa017))
	r.faults = *rand.New(src)
	r.jitter = *NewJitter(seed)
	return r
}

// Choose implements Chooser. A fault with probability 0 consumes no random
// number, so adding a fault kind with zero probability changes nothing.
func (r *Random) Choose(c Choice) int {
	if !c.Kind.IsFault() {
		return r.jitter.Choose(c)
	}
	switch {
	case c.P <= 0:
		return 0
	case c.P >= 1:
		return 1
	case r.faults.Float64() < c.P:
		return 1
	}
	return 0
}

// Jitter answers the non-fault choices (extra delays) from the jitter
// stream of a seed, and every fault choice with 0.
type Jitter struct {
	rng rand.Rand
}

// NewJitter returns the jitter stream of seed.
func NewJitter(seed uint64) *Jitter {
	src := &rand.PCG{}
	src.Seed(splitmix(seed^0x717e5), splitmix(seed+0x717e5))
	return &Jitter{rng: *rand.New(src)}
}

// Choose implements Chooser.
func (j *Jitter) Choose(c Choice) int {
	if c.Kind.IsFault() || c.N <= 1 {
		return 0
	}
	return j.rng.IntN(int(c.N))
}

// Defaults is the Chooser that always takes alternative 0: no faults, no
// jitter. It is the fault-free schedule.
type Defaults struct{}

// Choose implements Chooser.
func (Defaults) Choose(Choice) int { return 0 }

// splitmix derives a well-mixed 64-bit value from a seed, so that nearby
// seeds (1, 2, 3…) start unrelated streams.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
