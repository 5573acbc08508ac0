package brokers

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/sim"
)

// TestJSTimelineIsTheSimulatorsClock: the NATS driver's model clock,
// fed what the driver knows (each publish's time on the scenario's clock,
// the decider's link delay, the crashes and pauses it decides), gives every
// delivery of the simulator's trace its time and says "down" exactly for
// the deliveries the simulator drops because the subscriber is crashed —
// over the four agreement rows of nats-msg-id-window and 100 seeds each.
// Keyed by NumDelivered alone (before), the driver shipped such a
// delivery when nats-server held it until the restart, and asked the
// crash of delivery 1 where the simulator asks delivery 2.
func TestJSTimelineIsTheSimulatorsClock(t *testing.T) {
	drops, held := 0, 0
	for _, c := range AgreementCases() {
		if c.Broker != NATS {
			continue
		}
		sc, set, _, err := c.settings()
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := sc.Config(set)
		if err != nil {
			t.Fatal(err)
		}
		d := newJetStreamDriver(cfg)
		if d == nil || d.link == 0 {
			t.Fatalf("%s: no NATS driver, or no link delay: %+v", c, d)
		}
		for seed := uint64(1); seed <= 100; seed++ {
			var tr sim.Trace
			if _, err := runs.Outcome(sc, set, sim.NewRandom(seed), &tr); err != nil {
				t.Fatal(err)
			}
			tl := newJSTimeline(d.ackWait, d.restart)
			arrived := map[sim.OpID]sim.Time{} // op → when its latest publish reached the stream (sent + the decider's delay)
			var at sim.Time                    // the time of the delivery being handled
			for _, e := range tr.Events {
				m := e.Msg
				switch {
				case e.Kind == sim.EvSend && e.Node == d.publisher && m.Kind == d.publish:
					if want := sim.Time(m.Op-1)*d.interval + sim.Time(m.Attempt-1)*d.retry; e.At != want {
						t.Fatalf("%s seed %d: op-%d publish %d sent at %d, the driver's schedule says %d", c, seed, m.Op, m.Attempt, e.At, want)
					}
				case e.Kind == sim.EvDeliver && e.Node == d.stream && m.Kind == d.publish:
					arrived[m.Op] = e.At
				case e.Kind == sim.EvSend && e.Node == d.stream && m.Kind == d.deliver && m.Attempt == 1:
					if a, ok := arrived[m.Op]; !ok || a != e.At {
						t.Fatalf("%s seed %d: op-%d first delivered at %d, not when its publish arrived (%d)", c, seed, m.Op, e.At, a)
					}
					tl.stored(uint64(m.Key), arrived[m.Op]+d.link) // as the driver: sent + delay + link
				case e.Kind == sim.EvDrop && e.Reason == sim.DropDown && m.Kind == d.deliver:
					got, down := tl.handled(uint64(m.Key), int(m.Attempt))
					if !down || got != e.At {
						t.Errorf("%s seed %d: op-%d delivery %d dropped (subscriber down) at %d; the timeline says %d, down %v", c, seed, m.Op, m.Attempt, e.At, got, down)
					}
					drops++
				case e.Kind == sim.EvDeliver && e.Node == d.subscriber && m.Kind == d.deliver:
					var down bool
					at, down = tl.handled(uint64(m.Key), int(m.Attempt))
					if down || at != e.At {
						t.Errorf("%s seed %d: op-%d delivery %d handled at %d; the timeline says %d, down %v", c, seed, m.Op, m.Attempt, e.At, at, down)
					}
					if at != tl.first[uint64(m.Key)]+sim.Time(m.Attempt-1)*d.ackWait {
						held++
					}
				case e.Kind == sim.EvCrash && e.Node == d.subscriber:
					tl.crashed(at)
				case e.Kind == sim.EvPause && e.Node == d.subscriber:
					tl.pausedFor(at, d.pauseFor)
				}
			}
		}
	}
	if drops < 50 || held < 5 {
		t.Errorf("%d deliveries dropped to a crashed subscriber and %d held by a pause over 400 runs: too few to test the timeline", drops, held)
	}
	t.Logf("%d deliveries dropped to a crashed subscriber, %d held by a pause", drops, held)
}

// TestJSTimeline: a crash's down window, a redelivery after it, and a
// delivery held by a pause, on the scenario's clock.
func TestJSTimeline(t *testing.T) {
	tl := newJSTimeline(30000, 500)
	for seq := uint64(1); seq <= 10; seq++ {
		tl.stored(seq, sim.Time(seq-1)*100+20)
	}
	tl.crashed(420) // op-5's delivery: down until 920
	for _, c := range []struct {
		seq  uint64
		n    int
		at   sim.Time
		down bool
	}{{4, 1, 320, false}, {6, 1, 520, true}, {10, 1, 920, false}, {9, 1, 820, true}, {9, 2, 30820, false}} {
		if at, down := tl.handled(c.seq, c.n); at != c.at || down != c.down {
			t.Errorf("seq %d delivery %d: at %d down %v, want %d %v", c.seq, c.n, at, down, c.at, c.down)
		}
	}
	tl.pausedFor(30820, 45000) // paused at seq 9's redelivery
	if at, down := tl.handled(10, 2); at != 75820 || down {
		t.Errorf("seq 10 delivery 2 during the pause: at %d down %v, want 75820 (the resume), false", at, down)
	}
	tl.crashed(75820) // a crash at a held delivery: the ones held after it are dropped
	if at, down := tl.handled(10, 2); at != 75820 || !down {
		t.Errorf("seq 10 delivery 2 after a crash at the resume: at %d down %v, want 75820, true", at, down)
	}
}

// TestJetStreamMayPublish: a publish waits for the subscriber as the
// model's stands when the message reaches it. Seed 20 alo on a loaded
// machine: the subscriber killed at op-9 (model 818 ms, restarted at
// 1318), op-6's retry (1522) was published before nats-server had seen
// the dead connection, pushed to it and lost, and came back as delivery
// 2, which the model ships as delivery 1.
func TestJetStreamMayPublish(t *testing.T) {
	r := &jetStreamRun{unseen: map[uint64]bool{}}
	if !r.mayPublish(0) {
		t.Error("an idle subscriber: the publish waits")
	}
	r.unseen[9] = true
	if r.mayPublish(0) {
		t.Error("seq 9 stored and not yet delivered: the publish goes")
	}
	r.unseen, r.inflight = map[uint64]bool{}, 1
	if r.mayPublish(0) {
		t.Error("a delivery not acked: the publish goes")
	}
	r.inflight, r.down, r.downUntil = 0, true, 1318
	if !r.mayPublish(922) {
		t.Error("killed, a message the model's subscriber is down for (922 < 1318): the publish waits")
	}
	if r.mayPublish(1522) {
		t.Error("killed, a message the model's restarted subscriber takes (1522): the publish goes before the new process is subscribed")
	}
	r.down, r.stopped, r.stoppedUntil = false, true, 45818
	if !r.mayPublish(1522) || r.mayPublish(46000) {
		t.Error("stopped until 45818: a message within the pause waits, or one after it goes")
	}
}
