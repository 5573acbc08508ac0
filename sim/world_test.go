package sim_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// fnNode is a Node whose handlers are plain functions, so each test can
// write the few lines of behaviour it needs.
type fnNode struct {
	start   func(ctx *sim.Context)
	receive func(ctx *sim.Context, m sim.Message)
	timer   func(ctx *sim.Context, t sim.Timer)
}

func (n *fnNode) Start(ctx *sim.Context) {
	if n.start != nil {
		n.start(ctx)
	}
}

func (n *fnNode) Receive(ctx *sim.Context, m sim.Message) {
	if n.receive != nil {
		n.receive(ctx, m)
	}
}

func (n *fnNode) Timer(ctx *sim.Context, t sim.Timer) {
	if n.timer != nil {
		n.timer(ctx, t)
	}
}

// fixedNet is a Network with a fixed delay on every link; it asks for a
// loss when lossProbability > 0 and for a jitter when jitter > 0.
type fixedNet struct {
	delay           sim.Time
	jitter          int32
	lossProbability float64
}

func (n *fixedNet) Transmit(ch sim.Chooser, m *sim.Message, now sim.Time) sim.Fate {
	if n.lossProbability > 0 {
		c := sim.Choice{Kind: sim.ChoiceLoss, N: 2, P: n.lossProbability, Node: m.From, Peer: m.To, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}
		if ch.Choose(c) == 1 {
			return sim.Fate{Drop: sim.DropLoss}
		}
	}
	f := sim.Fate{Delay: n.delay}
	if n.jitter > 0 {
		c := sim.Choice{Kind: sim.ChoiceJitter, N: n.jitter + 1, Node: m.From, Peer: m.To, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}
		f.Delay += sim.Time(ch.Choose(c))
	}
	return f
}

func newWorld(t *testing.T, cfg *sim.Config, ch sim.Chooser, rec sim.Recorder) *sim.World {
	t.Helper()
	w, err := sim.NewWorld(cfg, ch, rec)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Crash test topology: a crashable victim with a durable and a volatile
// table, and a peer that sends to it while it is down and after it is
// back.
const (
	victim sim.NodeID = 0
	peer   sim.NodeID = 1

	durableTable  sim.TableID = 0
	volatileTable sim.TableID = 1

	pointHere sim.PointID = 1

	timerEarly    sim.TimerKind = 1 // set before the crash, due while the victim is down
	timerLate     sim.TimerKind = 2 // set before the crash, due after the restart
	timerCrash    sim.TimerKind = 3 // the victim reaches its crash point
	timerAfter    sim.TimerKind = 4 // set after the restart
	timerZombie   sim.TimerKind = 5 // set by the handler after it crashed
	timerSendDown sim.TimerKind = 6 // peer: send while the victim is down
	timerSendUp   sim.TimerKind = 7 // peer: send after the restart
)

// bootState is what the victim saw of its tables when it (re)started.
type bootState struct {
	at       sim.Time
	durable  []int64 // keys
	volatile []int64
}

// crashProbe collects what the victim saw; the test reads it afterwards.
type crashProbe struct {
	boots       []bootState
	getAfter    bool // Get after the crash point found something
	crashAgain  bool // a second CrashPoint call reported "not crashed"
	received    []sim.Time
	durableRow1 sim.Record
}

func keys(t sim.TableView) []int64 {
	var out []int64
	for i := 0; i < t.Len(); i++ {
		k, _ := t.At(i)
		out = append(out, k)
	}
	return out
}

// crashWorld builds the crash test's world; crashProbability is the
// victim's (Scripted ignores it, but a zero offers no choice at all).
func crashWorld(t *testing.T, probe *crashProbe, ch sim.Chooser, rec sim.Recorder, crashProbability float64) *sim.World {
	victimNode := &fnNode{
		start: func(ctx *sim.Context) {
			probe.boots = append(probe.boots, bootState{at: ctx.Now(), durable: keys(ctx.Rows(durableTable)), volatile: keys(ctx.Rows(volatileTable))})
			if r, ok := ctx.Get(durableTable, 1, 0); ok {
				probe.durableRow1 = r
				ctx.After(1000, sim.Timer{Kind: timerAfter})
				return
			}
			ctx.Put(durableTable, 1, 0, sim.Record{Value: 11})
			ctx.Put(volatileTable, 1, 0, sim.Record{Value: 22})
			ctx.After(50, sim.Timer{Kind: timerEarly})
			ctx.After(500, sim.Timer{Kind: timerLate})
			ctx.After(10, sim.Timer{Kind: timerCrash})
		},
		timer: func(ctx *sim.Context, tm sim.Timer) {
			if tm.Kind != timerCrash || !ctx.CrashPoint(pointHere, nil) {
				return
			}
			// A buggy handler that keeps going after its crash point:
			// every call below must be a no-op.
			ctx.Put(durableTable, 2, 0, sim.Record{Value: 33})
			ctx.Put(volatileTable, 2, 0, sim.Record{Value: 44})
			ctx.Delete(durableTable, 1, 0)
			ctx.Send(peer, sim.Message{Kind: 1, Op: 1})
			ctx.After(150, sim.Timer{Kind: timerZombie}) // due after the restart
			ctx.Effect(0, 1, 1)
			ctx.Outcome(1, 1, 200)
			_, probe.getAfter = ctx.Get(durableTable, 1, 0)
			probe.crashAgain = !ctx.CrashPoint(pointHere, nil)
		},
		receive: func(ctx *sim.Context, m sim.Message) {
			probe.received = append(probe.received, ctx.Now())
		},
	}
	peerNode := &fnNode{
		start: func(ctx *sim.Context) {
			ctx.After(50, sim.Timer{Kind: timerSendDown})
			ctx.After(200, sim.Timer{Kind: timerSendUp})
			// The peer is not crashable: its crash point is no choice.
			if ctx.CrashPoint(pointHere, nil) {
				t.Error("a node that is not crashable crashed")
			}
		},
		timer: func(ctx *sim.Context, tm sim.Timer) {
			ctx.Send(victim, sim.Message{Kind: 2, Op: 1})
		},
	}
	cfg := &sim.Config{
		Topology: &sim.Topology{Nodes: []sim.NodeSpec{
			{Name: "victim", Crashable: true, CrashProbability: crashProbability, RestartAfter: 100, Tables: []sim.TableSpec{
				{Name: "durable", Durable: true, Traced: true},
				{Name: "volatile", Traced: true},
			}},
			{Name: "peer"},
		}},
		Nodes:     []sim.Node{victimNode, peerNode},
		Network:   &fixedNet{delay: 5},
		Observe:   sim.Observation{Origin: peer, Request: 2, Processor: victim, Sinks: []sim.SinkID{0}},
		Ops:       1,
		Semantics: sim.AtLeastOnce,
	}
	return newWorld(t, cfg, ch, rec)
}

func firedTimers(events []sim.Event, node sim.NodeID) []sim.TimerKind {
	var out []sim.TimerKind
	for _, e := range events {
		if e.Kind == sim.EvTimerFire && e.Node == node {
			out = append(out, sim.TimerKind(e.Label))
		}
	}
	return out
}

// alwaysCrash answers every choice with its last alternative and counts
// the crash choices it is asked.
type alwaysCrash struct{ asked int }

func (a *alwaysCrash) Choose(c sim.Choice) int {
	if c.Kind == sim.ChoiceCrash {
		a.asked++
	}
	return int(c.N) - 1
}

// TestCrashKeepsDurableLosesVolatile crashes the victim at its crash point
// (t=10, restart at t=110) through a one-fault plan and checks what the
// engine promises: the volatile table is empty on restart and the durable
// one intact, timers set before the crash never fire, and every context
// call of the crashed handler is a no-op. A fault-free run of the same
// world is the control: there every timer fires.
func TestCrashKeepsDurableLosesVolatile(t *testing.T) {
	var control crashProbe
	var controlTrace sim.Trace
	out := crashWorld(t, &control, sim.Defaults{}, &controlTrace, 0.5).Run()
	if out.End != sim.Quiescent || out.Faults.Of(sim.ChoiceCrash) != 0 {
		t.Fatalf("control run: end %s, %d crashes", out.End, out.Faults.Of(sim.ChoiceCrash))
	}
	if got := fmt.Sprint(firedTimers(controlTrace.Events, victim)); got != "[3 1 2]" {
		t.Fatalf("control run: victim timers fired %s, want [3 1 2]", got)
	}
	if len(control.boots) != 1 || len(control.received) != 2 {
		t.Fatalf("control run: %d boots, %d deliveries; want 1 and 2", len(control.boots), len(control.received))
	}

	var probe crashProbe
	var trace sim.Trace
	plan := sim.NewScripted([]sim.Fault{{Kind: sim.ChoiceCrash, Node: victim, Peer: sim.NoNode, Point: pointHere, Occurrence: 1, Value: 1}}, nil)
	out = crashWorld(t, &probe, plan, &trace, 0.5).Run()
	if plan.Used() != 1 {
		t.Fatalf("the crash fault was not hit (used %d)", plan.Used())
	}
	if out.End != sim.Quiescent {
		t.Fatalf("crash run ended %s", out.End)
	}

	// One crash at t=10, one restart at t=110.
	var crash, restart *sim.Event
	for i := range trace.Events {
		e := &trace.Events[i]
		switch e.Kind {
		case sim.EvCrash:
			if crash != nil {
				t.Fatalf("second crash at %s", e.At)
			}
			crash = e
		case sim.EvRestart:
			restart = e
		}
	}
	if crash == nil || restart == nil {
		t.Fatal("no crash or no restart in the trace")
	}
	if crash.At != 10 || crash.Node != victim || sim.PointID(crash.Label) != pointHere || restart.At != 110 || restart.Node != victim {
		t.Fatalf("crash %+v, restart %+v", *crash, *restart)
	}

	// Durable survives, volatile is gone, nothing written after the crash.
	if len(probe.boots) != 2 {
		t.Fatalf("%d boots, want 2", len(probe.boots))
	}
	reboot := probe.boots[1]
	if reboot.at != 110 || fmt.Sprint(reboot.durable) != "[1]" || len(reboot.volatile) != 0 {
		t.Fatalf("on restart: at %s durable keys %v volatile keys %v; want 110ms [1] []", reboot.at, reboot.durable, reboot.volatile)
	}
	if probe.durableRow1.Value != 11 || probe.durableRow1.At != 0 {
		t.Fatalf("durable row 1 after restart = %+v, want Value 11 written at 0", probe.durableRow1)
	}
	if fmt.Sprint(control.boots[0].volatile) != "[]" {
		t.Fatalf("control boot saw volatile keys %v", control.boots[0].volatile)
	}

	// The crashed handler's calls left no trace and did nothing.
	for _, e := range trace.Events[crash.Seq+1 : restart.Seq] {
		if e.Node == victim {
			t.Errorf("event of the crashed victim at %s: %s", e.At, e.Kind)
		}
	}
	if probe.getAfter || probe.crashAgain {
		t.Errorf("after the crash: Get found a row %v, CrashPoint reported alive %v", probe.getAfter, probe.crashAgain)
	}
	if out.Ops[0].Effects != 0 || out.Ops[0].Outcomes != 0 {
		t.Errorf("the crashed handler's effect or outcome counted: %+v", out.Ops[0])
	}

	// Timers of the dead incarnation never fire; the new one's do.
	if got := fmt.Sprint(firedTimers(trace.Events, victim)); got != "[3 4]" {
		t.Fatalf("victim timers fired %s, want [3 4] (1, 2 and 5 died with the crash)", got)
	}

	// The send while down is dropped as "down"; the one after is delivered.
	if out.Faults.Down != 1 || fmt.Sprint(probe.received) != "[205ms]" {
		t.Fatalf("down drops %d, deliveries at %v; want 1 and [205ms]", out.Faults.Down, probe.received)
	}
	if out.Ops[0].Attempts != 2 || out.Ops[0].Deliveries != 1 {
		t.Fatalf("op-1 attempts %d deliveries %d, want 2 and 1", out.Ops[0].Attempts, out.Ops[0].Deliveries)
	}
}

// TestCrashPointAsksOnlyCrashableNodes checks that a node that is not
// crashable, or crashable with probability 0, never asks the chooser at
// its crash points, and that a crashable one asks once per crash point
// reached.
func TestCrashPointAsksOnlyCrashableNodes(t *testing.T) {
	var probe crashProbe
	ch := &alwaysCrash{}
	out := crashWorld(t, &probe, ch, nil, 0.5).Run()
	// Only the victim's first crash point is reached by a live node; the
	// post-crash CrashPoint call returns early without asking.
	if ch.asked != 1 || out.Faults.Of(sim.ChoiceCrash) != 1 {
		t.Fatalf("crash choices asked %d, crashes %d; want 1 and 1", ch.asked, out.Faults.Of(sim.ChoiceCrash))
	}
	ch = &alwaysCrash{}
	out = crashWorld(t, &crashProbe{}, ch, nil, 0).Run()
	if ch.asked != 0 || out.Faults.Of(sim.ChoiceCrash) != 0 {
		t.Fatalf("crash probability 0: crash choices asked %d, crashes %d; want none", ch.asked, out.Faults.Of(sim.ChoiceCrash))
	}
}

// timerLoop is a world of one node that re-arms a timer forever.
func timerLoop(every sim.Time, maxEvents int, maxTime sim.Time) *sim.Config {
	n := &fnNode{
		start: func(ctx *sim.Context) { ctx.After(every, sim.Timer{Kind: 1}) },
		timer: func(ctx *sim.Context, t sim.Timer) { ctx.After(every, t) },
	}
	return &sim.Config{
		Topology:  &sim.Topology{Nodes: []sim.NodeSpec{{Name: "looper"}}},
		Nodes:     []sim.Node{n},
		Network:   &fixedNet{},
		Ops:       1,
		Semantics: sim.Idempotent,
		MaxEvents: maxEvents,
		MaxTime:   maxTime,
	}
}

// TestBudgets checks that a run that never quiesces is cut by its event or
// time budget, says which, is not finished, and is judged Unknown rather
// than passed.
func TestBudgets(t *testing.T) {
	cases := []struct {
		name      string
		every     sim.Time
		maxEvents int
		maxTime   sim.Time
		end       sim.End
		events    int
		now       sim.Time
	}{
		{"zero-delay timer, event budget", 0, 1000, 0, sim.EventBudget, 1000, 0},
		{"ticking timer, event budget", 3, 1000, 0, sim.EventBudget, 1000, 3000},
		{"ticking timer, time budget", 10, 0, 1000, sim.TimeBudget, 100, 1000},
		{"default event budget", 0, 0, 0, sim.EventBudget, sim.DefaultMaxEvents, 0},
		{"default time budget", 1000, 0, 0, sim.TimeBudget, int(sim.DefaultMaxTime / 1000), sim.DefaultMaxTime},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, timerLoop(tc.every, tc.maxEvents, tc.maxTime), sim.Defaults{}, nil)
			out := w.Run()
			if out.End != tc.end || out.Finished() {
				t.Fatalf("end %s (finished %v), want %s", out.End, out.Finished(), tc.end)
			}
			if out.Events != tc.events || out.EndTime != tc.now || w.Now() != tc.now {
				t.Fatalf("%d events, end time %s; want %d and %s", out.Events, out.EndTime, tc.events, tc.now)
			}
			if out.Status != sim.Unknown {
				t.Fatalf("status %s (%s), want unknown", out.Status, out.Why)
			}
			if w.Step() || w.Ended() != tc.end || w.Events() != tc.events {
				t.Fatal("the world stepped on after its end")
			}
		})
	}
}

// TestQuiescentRunIsFinished is the budgets' counterpart: a run that runs
// out of work ends Quiescent and is judged.
func TestQuiescentRunIsFinished(t *testing.T) {
	n := &fnNode{start: func(ctx *sim.Context) {
		ctx.After(7, sim.Timer{})
		ctx.Effect(0, 1, 1)
	}}
	cfg := &sim.Config{
		Topology: &sim.Topology{Nodes: []sim.NodeSpec{{Name: "one"}}},
		Nodes:    []sim.Node{n}, Network: &fixedNet{}, Ops: 1, Semantics: sim.Idempotent,
		Observe: sim.Observation{Sinks: []sim.SinkID{0}}, MaxEvents: 10, MaxTime: 100,
	}
	out := newWorld(t, cfg, sim.Defaults{}, nil).Run()
	if out.End != sim.Quiescent || !out.Finished() || out.Status != sim.Held || out.EndTime != 7 || out.Events != 2 {
		t.Fatalf("outcome %+v, want finished and held at 7ms after 2 events", out)
	}
}

// TestEqualTimesRunInScheduleOrder checks the (time, sequence) order
// through the engine: timers due at the same tick fire in the order they
// were set, whatever their kinds, and messages sent in one handler arrive
// in send order.
func TestEqualTimesRunInScheduleOrder(t *testing.T) {
	kinds := []sim.TimerKind{9, 2, 7, 1, 8, 3, 6, 4, 5}
	var got []sim.Message
	sender := &fnNode{
		start: func(ctx *sim.Context) {
			for _, k := range kinds {
				ctx.After(20, sim.Timer{Kind: k})
			}
			ctx.After(10, sim.Timer{Kind: 100})
			for i := range 5 {
				ctx.Send(1, sim.Message{Kind: 1, Payload: int64(5 - i)})
			}
		},
	}
	receiver := &fnNode{receive: func(ctx *sim.Context, m sim.Message) { got = append(got, m) }}
	cfg := &sim.Config{
		Topology: &sim.Topology{Nodes: []sim.NodeSpec{{Name: "sender"}, {Name: "receiver"}}},
		Nodes:    []sim.Node{sender, receiver}, Network: &fixedNet{delay: 3},
	}
	var trace sim.Trace
	newWorld(t, cfg, sim.Defaults{}, &trace).Run()
	want := append([]sim.TimerKind{100}, kinds...)
	if fired := firedTimers(trace.Events, 0); !slices.Equal(fired, want) {
		t.Fatalf("timers fired %v, want %v", fired, want)
	}
	var payloads []int64
	for i, m := range got {
		payloads = append(payloads, m.Payload)
		if m.ID != uint32(i+1) || m.From != 0 || m.To != 1 {
			t.Fatalf("message %d stamped ID %d from %d to %d", i, m.ID, m.From, m.To)
		}
	}
	if fmt.Sprint(payloads) != "[5 4 3 2 1]" {
		t.Fatalf("messages arrived with payloads %v, want [5 4 3 2 1]", payloads)
	}
}

// TestConfigValidate checks that NewWorld refuses broken configurations.
func TestConfigValidate(t *testing.T) {
	ok := func() *sim.Config {
		return &sim.Config{
			Topology: &sim.Topology{Nodes: []sim.NodeSpec{{Name: "a"}}},
			Nodes:    []sim.Node{&fnNode{}}, Network: &fixedNet{}, Ops: 1,
		}
	}
	if _, err := sim.NewWorld(ok(), sim.Defaults{}, nil); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
	for name, mutate := range map[string]func(c *sim.Config){
		"no topology":    func(c *sim.Config) { c.Topology = nil },
		"no nodes":       func(c *sim.Config) { c.Topology = &sim.Topology{} },
		"too few roles":  func(c *sim.Config) { c.Nodes = nil },
		"too many nodes": func(c *sim.Config) { c.Topology.Nodes = make([]sim.NodeSpec, 255); c.Nodes = make([]sim.Node, 255) },
		"no network":     func(c *sim.Config) { c.Network = nil },
		"negative ops":   func(c *sim.Config) { c.Ops = -1 },
	} {
		c := ok()
		mutate(c)
		if _, err := sim.NewWorld(c, sim.Defaults{}, nil); err == nil || !strings.HasPrefix(err.Error(), "sim: ") {
			t.Errorf("%s: NewWorld error %v, want a sim: error", name, err)
		}
	}
}

// digestTopo names the kinds of the events TestDigestCoversEveryField
// folds.
var digestTopo = &sim.Topology{
	Nodes:    []sim.NodeSpec{{Name: "a"}, {Name: "b"}, {Name: "c"}},
	Messages: []string{"", "m1", "m2", "m3", "m4"},
}

// TestDigestCoversEveryField changes each field of an Event (all but Seq,
// which is the position in the trace) and checks that the digest changes:
// a field added to Event, Message or Record but forgotten in Digest.Add
// fails here.
func TestDigestCoversEveryField(t *testing.T) {
	base := sim.Event{At: 5, Kind: sim.EvSend, Node: 1, Peer: 2, Msg: sim.Message{ID: 3, From: 1, To: 2, Kind: 4, Op: 5}}
	d0 := sim.DigestOf(digestTopo, []sim.Event{base})
	var walk func(path string, v reflect.Value)
	checked := 0
	walk = func(path string, v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			f, name := v.Field(i), path+v.Type().Field(i).Name
			if name == "Seq" {
				continue
			}
			switch f.Kind() {
			case reflect.Struct:
				walk(name+".", f)
				continue
			case reflect.Bool:
				f.SetBool(!f.Bool())
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				f.SetInt(f.Int() ^ 0x41)
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
				f.SetUint(f.Uint() ^ 0x41)
			default:
				t.Fatalf("field %s of kind %s: teach this test about it", name, f.Kind())
			}
			e := reflect.ValueOf(&base).Elem().Interface().(sim.Event)
			if sim.DigestOf(digestTopo, []sim.Event{e}) == d0 {
				t.Errorf("changing %s does not change the digest", name)
			}
			checked++
			// Restore.
			switch f.Kind() {
			case reflect.Bool:
				f.SetBool(!f.Bool())
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				f.SetInt(f.Int() ^ 0x41)
			default:
				f.SetUint(f.Uint() ^ 0x41)
			}
		}
	}
	walk("", reflect.ValueOf(&base).Elem())
	if checked < 20 || sim.DigestOf(digestTopo, []sim.Event{base}) != d0 {
		t.Fatalf("checked %d fields; base restored: %v", checked, sim.DigestOf(digestTopo, []sim.Event{base}) == d0)
	}
	// Order matters too: the digest is of a stream, not a set.
	other := base
	other.At++
	if sim.DigestOf(digestTopo, []sim.Event{base, other}) == sim.DigestOf(digestTopo, []sim.Event{other, base}) {
		t.Error("swapping two events does not change the digest")
	}
}
