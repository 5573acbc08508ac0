package brokers

import (
	"sync"

	"github.com/oncesim/once/sim"
)

// jsTimeline is the simulator's clock of a NATS run, kept by the driver so
// that each delivery meets the decision the simulator makes for it. Both
// worlds key a crash or a pause by the delivery (op, delivery count), and
// the count depends on what happens while the subscriber is down: the
// model's stream pushes a message to a crashed subscriber (dropped, to-down,
// counted) and delivers it again after AckWait, where nats-server makes no
// delivery while nobody subscribes and delivers it when the subscriber is
// back, counted as its first. Which deliveries fall into the model's down
// window is a matter of the scenario's clock (100 ms between orders, a
// 500 ms restart), which the real run does not keep: its subscriber takes
// real time to restart and to work.
//
// So the driver computes, for every delivery the subscriber reports, the
// model time it reaches the model's subscriber — its first delivery's
// arrival (the publish's time on the scenario's clock plus the decider's
// link delay and jitter plus the stream's link), plus AckWait per
// redelivery, or the end of the pause it arrives in — and when the model's
// subscriber is down then, the fault layer drops it as the simulator does
// (no shipment, no ack): JetStream delivers it again after AckWait, counted
// as the model counts it.
type jsTimeline struct {
	mu      sync.Mutex
	ackWait sim.Time
	restart sim.Time // the subscriber's restart delay
	first   map[uint64]sim.Time
	down    []span // crash → restart
	paused  []span // pause → resume
}

// span is a half-open window of model time [from, to).
type span struct{ from, to sim.Time }

func (s span) has(t sim.Time) bool { return s.from <= t && t < s.to }

func newJSTimeline(ackWait, restart sim.Time) *jsTimeline {
	return &jsTimeline{ackWait: ackWait, restart: restart, first: map[uint64]sim.Time{}}
}

// stored notes that stream sequence seq's first delivery reaches the
// subscriber at model time at.
func (t *jsTimeline) stored(seq uint64, at sim.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.first[seq] = at
}

// known says whether seq's first delivery time is noted.
func (t *jsTimeline) known(seq uint64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.first[seq]
	return ok
}

// handled is the model time delivery n of seq is handled at, and whether
// the model's subscriber is down then (the delivery is dropped). A
// delivery reaches the subscriber AckWait after the one before it; one
// that arrives during a pause is handled when the pause ends.
func (t *jsTimeline) handled(seq uint64, n int) (at sim.Time, down bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	at = t.first[seq] + sim.Time(max(n-1, 0))*t.ackWait
	for _, p := range t.paused { // in the order they happened: a held delivery can meet the next
		if p.has(at) {
			at = p.to
		}
	}
	for _, d := range t.down {
		if d.has(at) {
			return at, true
		}
	}
	return at, false
}

// crashed notes a crash of the subscriber at model time at: it is down
// until its restart.
func (t *jsTimeline) crashed(at sim.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.down = append(t.down, span{at, at + t.restart})
}

// pausedFor notes a pause of the subscriber at model time at for d.
func (t *jsTimeline) pausedFor(at, d sim.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.paused = append(t.paused, span{at, at + d})
}
