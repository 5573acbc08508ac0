package sim_test

import (
	"fmt"
	"testing"

	"github.com/oncesim/once/sim"
)

// Pause test timers (the victim's) and timing: the victim pauses at t=10
// for 1000 ticks, so it resumes at t=1010. The peer sends op-2 at t=100
// and op-3 at t=200; both arrive (delay 5) while the victim is frozen.
const (
	pauseAt      sim.Time      = 10
	pauseFor     sim.Time      = 1000
	resumeAt                   = pauseAt + pauseFor
	timerPause                 = timerCrash // the victim reaches its crash point
	timerDuring  sim.TimerKind = 11         // set before the pause, due at t=300 while frozen
	timerHeld    sim.TimerKind = 12         // set by the held rest of the handler, 50 ticks
	timerPeerOp2 sim.TimerKind = 13
	timerPeerOp3 sim.TimerKind = 14
)

// pauseProbe is what the victim saw.
type pauseProbe struct {
	fired     map[sim.TimerKind]sim.Time
	delivered []string // "op@time"
	volatile  []int64  // volatile keys at the first delivery
	paused    bool     // CrashPoint reported a crash
}

func pauseWorld(t *testing.T, probe *pauseProbe, ch sim.Chooser, rec sim.Recorder) *sim.World {
	probe.fired = map[sim.TimerKind]sim.Time{}
	victimNode := &fnNode{
		start: func(ctx *sim.Context) {
			ctx.Put(durableTable, 1, 0, sim.Record{Value: 11})
			ctx.Put(volatileTable, 1, 0, sim.Record{Value: 22})
			ctx.After(pauseAt, sim.Timer{Kind: timerPause})
			ctx.After(300, sim.Timer{Kind: timerDuring})
		},
		timer: func(ctx *sim.Context, tm sim.Timer) {
			probe.fired[tm.Kind] = ctx.Now()
			if tm.Kind != timerPause {
				return
			}
			if ctx.CrashPoint(pointHere, nil) {
				probe.paused = true
				return
			}
			// The rest of the handler: it runs on the kept state, and what
			// it does happens at the resume.
			ctx.Put(volatileTable, 2, 0, sim.Record{Value: 44})
			ctx.Send(peer, sim.Message{Kind: 1, Op: 1})
			ctx.After(50, sim.Timer{Kind: timerHeld})
			ctx.Effect(0, 1, 1)
		},
		receive: func(ctx *sim.Context, m sim.Message) {
			if len(probe.delivered) == 0 {
				probe.volatile = keys(ctx.Rows(volatileTable))
			}
			probe.delivered = append(probe.delivered, fmt.Sprintf("%s@%s", m.Op, ctx.Now()))
		},
	}
	peerNode := &fnNode{
		start: func(ctx *sim.Context) {
			ctx.After(100, sim.Timer{Kind: timerPeerOp2})
			ctx.After(200, sim.Timer{Kind: timerPeerOp3})
		},
		timer: func(ctx *sim.Context, tm sim.Timer) {
			op := sim.OpID(2)
			if tm.Kind == timerPeerOp3 {
				op = 3
			}
			ctx.Send(victim, sim.Message{Kind: 2, Op: op})
		},
	}
	cfg := &sim.Config{
		Topology: &sim.Topology{Nodes: []sim.NodeSpec{
			{Name: "victim", Crashable: true, PauseProbability: 0.5, PauseFor: pauseFor, Tables: []sim.TableSpec{
				{Name: "durable", Durable: true, Traced: true},
				{Name: "volatile", Traced: true},
			}},
			{Name: "peer"},
		}},
		Nodes:     []sim.Node{victimNode, peerNode},
		Network:   &fixedNet{delay: 5},
		Observe:   sim.Observation{Origin: peer, Request: 2, Processor: victim, Sinks: []sim.SinkID{0}},
		Ops:       3,
		Semantics: sim.AtLeastOnce,
	}
	return newWorld(t, cfg, ch, rec)
}

// pausePlan pauses the victim at its crash point.
func pausePlan() *sim.Scripted {
	return sim.NewScripted([]sim.Fault{{Kind: sim.ChoicePause, Node: victim, Peer: sim.NoNode, Point: pointHere, Occurrence: 1, Value: 1}}, nil)
}

// TestPauseFreezesANodeWithItsState pauses the victim through a one-fault
// plan and checks what the engine promises of a pause: every table (the
// volatile one too) is kept, the deliveries that came meanwhile are
// handled after the resume in arrival order, a timer due meanwhile fires
// after the resume, and what the handler did after its pause point (a
// write, a send, a timer, an effect) happens at the resume. The fault-free
// run is the control.
func TestPauseFreezesANodeWithItsState(t *testing.T) {
	var control pauseProbe
	if out := pauseWorld(t, &control, sim.Defaults{}, nil).Run(); out.Faults.Of(sim.ChoicePause) != 0 {
		t.Fatalf("control run paused %d times", out.Faults.Of(sim.ChoicePause))
	}
	if got := fmt.Sprint(control.delivered); got != "[op-2@105ms op-3@205ms]" {
		t.Fatalf("control run: deliveries %s", got)
	}
	if control.fired[timerDuring] != 300 || control.fired[timerHeld] != pauseAt+50 {
		t.Fatalf("control run: timers %v", control.fired)
	}

	var probe pauseProbe
	var trace sim.Trace
	w := pauseWorld(t, &probe, pausePlan(), &trace)
	out := w.Run()
	if out.End != sim.Quiescent || out.Faults.Of(sim.ChoicePause) != 1 || out.Faults.Total() != 1 {
		t.Fatalf("end %s, faults %+v; want finished with one pause", out.End, out.Faults)
	}
	if probe.paused {
		t.Fatal("CrashPoint reported a crash for a pause: the handler must go on")
	}
	if got := fmt.Sprint(probe.delivered); got != "[op-2@1.01s op-3@1.01s]" {
		t.Errorf("deliveries %s, want both queued until the resume at 1.01s, in arrival order", got)
	}
	if got := fmt.Sprint(probe.volatile); got != "[1 2]" {
		t.Errorf("volatile table after the resume %s, want [1 2]: a pause keeps volatile state", got)
	}
	if probe.fired[timerDuring] != resumeAt {
		t.Errorf("a timer due during the pause fired at %s, want at the resume %s", probe.fired[timerDuring], resumeAt)
	}
	if probe.fired[timerHeld] != resumeAt+50 {
		t.Errorf("a timer set after the pause point fired at %s, want 50 ticks after the resume (%s)", probe.fired[timerHeld], resumeAt+50)
	}
	var pauses, resumes int
	for _, e := range trace.Events {
		switch {
		case e.Kind == sim.EvPause:
			pauses++
			if e.At != pauseAt || e.Node != victim || sim.PointID(e.Label) != pointHere || sim.Time(e.Msg.Value) != pauseFor {
				t.Errorf("pause event %+v", e)
			}
		case e.Kind == sim.EvResume:
			resumes++
			if e.At != resumeAt || e.Node != victim {
				t.Errorf("resume event %+v", e)
			}
		case e.Node == victim && e.At > pauseAt && e.At < resumeAt:
			t.Errorf("the paused victim acted at %s: %s", e.At, e.Kind)
		case e.Node == victim && (e.Kind == sim.EvSend || e.Kind == sim.EvEffect) && e.At != resumeAt:
			t.Errorf("the held %s happened at %s, want at the resume", e.Kind, e.At)
		}
	}
	if pauses != 1 || resumes != 1 {
		t.Errorf("%d pause and %d resume events, want 1 and 1", pauses, resumes)
	}
}

// TestPausedWorldClones checks that a world copied while a node is paused
// (with held work and a queued delivery) carries the pause and runs to the
// same end, with the same fingerprint on the way.
func TestPausedWorldClones(t *testing.T) {
	var probe pauseProbe
	w := pauseWorld(t, &probe, pausePlan(), nil)
	for w.Now() <= 105 { // past the first delivery, queued by the pause
		if !w.Step() {
			t.Fatal("the run ended before the pause")
		}
	}
	clone := w.Clone()
	if clone.Fingerprint() != w.Fingerprint() {
		t.Fatal("a clone of a paused world has another fingerprint")
	}
	a, b := w.Run(), clone.Run()
	if a.Digest != b.Digest || a.Faults != b.Faults {
		t.Fatalf("the clone of a paused world ran differently: %v vs %v", b.Digest, a.Digest)
	}
}
