package sim

import "testing"

// echo is a tiny role for fingerprint tests: node 0 waits Start delay, then
// sends op 1 to node 1 (optionally after a message that the network drops);
// node 1 records an effect and a row.
type echo struct {
	startAfter Time
	extraSend  bool
}

func (e *echo) Start(ctx *Context) {
	if ctx.Self() == 0 {
		ctx.After(e.startAfter, Timer{Kind: 1, Op: 1})
	}
}

func (e *echo) Timer(ctx *Context, t Timer) {
	if e.extraSend {
		ctx.Send(1, Message{Kind: 9, Op: 1}) // dropped by dropKind9
	}
	ctx.Send(1, Message{Kind: 1, Op: 1, Payload: 7})
}

func (e *echo) Receive(ctx *Context, m Message) {
	ctx.Put(0, int64(m.Op), m.Op, Record{State: 1, Value: m.Payload})
	ctx.Effect(0, m.Op, m.Payload)
}

// dropKind9 delivers everything after 10 ticks, except kind 9, dropped.
type dropKind9 struct{}

func (dropKind9) Transmit(_ Chooser, m *Message, _ Time) Fate {
	if m.Kind == 9 {
		return Fate{Drop: DropLoss}
	}
	return Fate{Delay: 10}
}

func echoWorld(t *testing.T, e *echo) *World {
	t.Helper()
	cfg := &Config{
		Topology: &Topology{Nodes: []NodeSpec{
			{Name: "a", Tables: []TableSpec{{Name: "t", Durable: true}}},
			{Name: "b", Tables: []TableSpec{{Name: "t", Durable: true}}},
		}},
		Nodes:   []Node{e, e},
		Network: dropKind9{},
		Observe: Observation{Origin: 0, Request: 1, Processor: 1, Sinks: []SinkID{0}},
		Ops:     1, Semantics: AtMostOnce,
	}
	w, err := NewWorld(cfg, Defaults{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// stepUntil steps w until pred holds.
func stepUntil(t *testing.T, w *World, pred func(*World) bool) {
	t.Helper()
	for !pred(w) {
		if !w.Step() {
			t.Fatal("world ended before the predicate held")
		}
	}
}

func inFlight(w *World) bool {
	for i := range w.q.items {
		if w.q.items[i].kind == itemDeliver {
			return true
		}
	}
	return false
}

// TestFingerprintEqualStatesByDifferentPaths: a world shifted in time, and
// a world whose message ids differ (an extra message was sent and lost),
// are the same state as the plain one.
func TestFingerprintEqualStatesByDifferentPaths(t *testing.T) {
	plain := echoWorld(t, &echo{startAfter: 5})
	shifted := echoWorld(t, &echo{startAfter: 500})
	extra := echoWorld(t, &echo{startAfter: 5, extraSend: true})
	for _, w := range []*World{plain, shifted, extra} {
		stepUntil(t, w, inFlight)
	}
	if plain.now == shifted.now {
		t.Fatal("test is broken: the shifted world is not shifted")
	}
	if plain.msgID == extra.msgID {
		t.Fatal("test is broken: message ids do not differ")
	}
	fp := plain.Fingerprint()
	if got := shifted.Fingerprint(); got != fp {
		t.Errorf("time-shifted world: fingerprint %x, want %x", got, fp)
	}
	if got := extra.Fingerprint(); got != fp {
		t.Errorf("world with other message ids: fingerprint %x, want %x", got, fp)
	}
	// And after the delivery, still equal.
	for _, w := range []*World{plain, shifted, extra} {
		stepUntil(t, w, func(w *World) bool { return !inFlight(w) })
	}
	if shifted.Fingerprint() != plain.Fingerprint() || extra.Fingerprint() != plain.Fingerprint() {
		t.Error("fingerprints differ after the delivery")
	}
}

// TestFingerprintSeesEveryDifference: changing node state, an in-flight
// message, the effects so far or the up/down flag changes the fingerprint.
func TestFingerprintSeesEveryDifference(t *testing.T) {
	base := echoWorld(t, &echo{startAfter: 5})
	stepUntil(t, base, inFlight)
	base.nodes[0].tables[0].Put(42, Record{State: 1, Value: 1})
	fp := base.Fingerprint()
	if c := base.Clone(); c.Fingerprint() != fp {
		t.Fatal("a clone must have the same fingerprint")
	}
	mutations := map[string]func(w *World){
		"table row value":   func(w *World) { w.nodes[0].tables[0].Put(42, Record{State: 1, Value: 2}) },
		"table row state":   func(w *World) { w.nodes[0].tables[0].Put(42, Record{State: 2, Value: 1}) },
		"table row age":     func(w *World) { w.nodes[0].tables[0].Put(42, Record{State: 1, Value: 1, At: w.now - 1}) },
		"new table row":     func(w *World) { w.nodes[1].tables[0].Put(1, Record{}) },
		"in-flight payload": func(w *World) { w.firstDelivery().msg.Payload++ },
		"in-flight op":      func(w *World) { w.firstDelivery().msg.Op++ },
		"in-flight attempt": func(w *World) { w.firstDelivery().msg.Attempt++ },
		"in-flight delay":   func(w *World) { w.firstDelivery().at++ },
		"effects so far":    func(w *World) { w.checker.ops[1].Sinks[0]++ },
		"distinct outcomes": func(w *World) { w.checker.ops[1].nDistinct, w.checker.ops[1].distinct[0] = 1, outcomeResult{value: 5} },
		"node down":         func(w *World) { w.nodes[1].down = true },
		"extra message queued": func(w *World) {
			w.schedule(item{at: w.now + 3, kind: itemDeliver, node: 1, msg: Message{Kind: 1, Op: 1}})
		},
	}
	for name, mutate := range mutations {
		c := base.Clone()
		mutate(c)
		if c.Fingerprint() == fp {
			t.Errorf("%s: the fingerprint did not change", name)
		}
		if base.Fingerprint() != fp {
			t.Fatalf("%s: mutating a clone changed the original", name)
		}
	}
}

func (w *World) firstDelivery() *item {
	for i := range w.q.items {
		if w.q.items[i].kind == itemDeliver {
			return &w.q.items[i]
		}
	}
	panic("no delivery in flight")
}
