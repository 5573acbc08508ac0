package sim

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// The floor: the cheapest possible discrete-event loop on this machine, a
// bare typed 4-ary heap of 24-byte events where each pop pushes one new
// event a PCG-random delay later. BenchmarkEngine is compared against it.

type floorEvent struct {
	at   int64
	seq  uint64
	node uint32
	_    uint32 // pads the event to 24 bytes, like the floor measured in DEPENDENCIES.md
}

type floorHeap []floorEvent

func (h floorHeap) less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}

func (h *floorHeap) push(e floorEvent) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *floorHeap) pop() floorEvent {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	*h = s
	i := 0
	for {
		first := 4*i + 1
		if first >= n {
			break
		}
		m := first
		for c := first + 1; c < min(first+4, n); c++ {
			if s.less(c, m) {
				m = c
			}
		}
		if !s.less(m, i) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	return top
}

const (
	benchInFlight = 1000
	benchMaxDelay = 100
)

// BenchmarkHeapFloor: one op is one event (pop one, push one) with 1000
// events in the queue.
func BenchmarkHeapFloor(b *testing.B) {
	pcg := rand.NewPCG(1, 2)
	h := make(floorHeap, 0, benchInFlight+1)
	seq := uint64(0)
	for i := range benchInFlight {
		h.push(floorEvent{at: int64(pcg.Uint64() % benchMaxDelay), seq: seq, node: uint32(i % 8)})
		seq++
	}
	b.ReportAllocs()
	events := 0
	sink := uint32(0)
	for b.Loop() {
		e := h.pop()
		sink += e.node
		h.push(floorEvent{at: e.at + 1 + int64(pcg.Uint64()%benchMaxDelay), seq: seq, node: (e.node + 1) % 8})
		seq++
		events++
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	if sink == math.MaxUint32 {
		b.Log(sink) // keep the loop's work observable
	}
}

// hashNet is a Network without faults whose delay is a hash of the message
// id: pseudo-random in [1, benchMaxDelay], like the floor's, and asking
// no choice.
type hashNet struct{}

func (hashNet) Transmit(_ Chooser, m *Message, _ Time) Fate {
	return Fate{Delay: 1 + Time(uint64(m.ID)*0x9e3779b97f4a7c15>>40)%benchMaxDelay}
}

// jitterNet asks one jitter choice per send, as a real network does. It
// keeps its Choice in a field (one net per world), so any allocation
// measured with it is the engine's, not the Choice escaping through the
// Chooser interface.
type jitterNet struct{ c Choice }

func (n *jitterNet) Transmit(ch Chooser, m *Message, _ Time) Fate {
	n.c = Choice{Kind: ChoiceJitter, N: benchMaxDelay, Node: m.From, Peer: m.To, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}
	return Fate{Delay: 1 + Time(ch.Choose(n.c))}
}

// pingNode forwards every message it receives to the next node of a ring;
// one message in four is instead held for a timer and forwarded when it
// fires, so timers run through the engine too. Each queue item therefore
// begets exactly one: the number in flight stays constant.
type pingNode struct{ next NodeID }

func (p *pingNode) Start(ctx *Context) {}

func (p *pingNode) Receive(ctx *Context, m Message) {
	if m.Payload%4 == 0 {
		ctx.After(1+Time(m.Payload%benchMaxDelay), Timer{Kind: 1, Key: m.Payload + 1})
		return
	}
	ctx.Send(p.next, Message{Kind: 1, Payload: m.Payload + 1})
}

func (p *pingNode) Timer(ctx *Context, t Timer) {
	ctx.Send(p.next, Message{Kind: 1, Payload: t.Key})
}

// seedNode is node 0 of the ring: on start it puts the messages in flight.
type seedNode struct {
	pingNode
	inFlight int
}

func (s *seedNode) Start(ctx *Context) {
	for i := range s.inFlight {
		ctx.Send(s.next, Message{Kind: 1, Payload: int64(i)})
	}
}

// BenchPingPong returns the configuration of the engine benchmarks: a ring
// of nodes with inFlight messages and timers circulating forever, and
// budgets that never cut it. It is exported (in test builds only) for the
// benchmarks of package sim_test.
func BenchPingPong(nodes, inFlight int, net Network) *Config {
	cfg := &Config{
		Topology:  &Topology{Nodes: make([]NodeSpec, nodes)},
		Network:   net,
		MaxEvents: MaxEventBudget,
		MaxTime:   math.MaxInt64 / 2,
	}
	for i := range nodes {
		next := NodeID((i + 1) % nodes)
		if i == 0 {
			cfg.Nodes = append(cfg.Nodes, &seedNode{pingNode: pingNode{next: next}, inFlight: inFlight})
		} else {
			cfg.Nodes = append(cfg.Nodes, &pingNode{next: next})
		}
	}
	return cfg
}

// BenchmarkEngine: one op is one engine step — pop an event, run a node's
// handler, push the event it causes — with 1000 events in flight; it
// reports the trace events per step too. "perfect" asks no choice;
// "jitter" asks the Chooser once per send.
func BenchmarkEngine(b *testing.B) {
	for _, bc := range []struct {
		name string
		net  Network
		ch   Chooser
	}{
		{"perfect", hashNet{}, Defaults{}},
		{"jitter", &jitterNet{}, NewJitter(1)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w, err := NewWorld(BenchPingPong(8, benchInFlight, bc.net), bc.ch, nil)
			if err != nil {
				b.Fatal(err)
			}
			// Warm up: start every node and let the queue reach its size.
			for range 20 * benchInFlight {
				w.Step()
			}
			if w.q.len() != benchInFlight {
				b.Fatalf("%d events in flight, want %d", w.q.len(), benchInFlight)
			}
			b.ReportAllocs()
			steps, events0 := 0, w.Events()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				if !w.Step() {
					b.Fatalf("the world ended: %s", w.Ended())
				}
				steps++
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "events/s")
			// allocs/op is rounded down to an integer; this is exact.
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(steps), "allocs/event")
			b.ReportMetric(float64(w.Events()-events0)/float64(steps), "trace-events/step")
		})
	}
}

// TestEngineSteadyStateAllocations pins the allocation behaviour the
// benchmark reports: once its queue has grown, the engine's inner loop
// allocates nothing.
func TestEngineSteadyStateAllocations(t *testing.T) {
	w, err := NewWorld(BenchPingPong(8, benchInFlight, hashNet{}), Defaults{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 * benchInFlight {
		w.Step()
	}
	sends := 0
	w.SetRecorder(&sendCounter{n: &sends})
	const steps = 10_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range steps {
		w.Step()
	}
	runtime.ReadMemStats(&after)
	allocs := int(after.Mallocs - before.Mallocs)
	if sends == 0 || sends == steps {
		t.Fatalf("%d sends in %d steps: the benchmark should mix sends and timers", sends, steps)
	}
	// The steady-state loop (pop, step a node, send, push) must not
	// allocate; a little slack covers whatever the runtime allocates
	// meanwhile.
	if allocs > steps/1000 {
		t.Fatalf("%d steps with %d sends allocated %d times, want 0", steps, sends, allocs)
	}
}

type sendCounter struct{ n *int }

func (s *sendCounter) Record(e *Event) {
	if e.Kind == EvSend {
		*s.n++
	}
}
