package sim_test

import (
	"fmt"
	"testing"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/sim"
)

// numbering is one build's numbers for the kinds of numberedWorld: the
// same names, numbered as another registration order would number them.
type numbering struct {
	pay, ack          sim.MsgKind
	retry             sim.TimerKind
	ledger, audit     sim.SinkID
	afterLock, before sim.PointID
	messages, timers  []string
	sinks, points     []string
}

var (
	// inOrder numbers the kinds as listed.
	inOrder = numbering{
		pay: 1, ack: 2, retry: 1, ledger: 0, audit: 1, afterLock: 1, before: 2,
		messages: []string{"", "pay", "ack"}, timers: []string{"", "retry"},
		sinks: []string{"ledger", "audit"}, points: []string{"", "after-lock", "before-reply"},
	}
	// permuted numbers the same names otherwise, with unrelated kinds
	// registered in between, as a renamed Go file would.
	permuted = numbering{
		pay: 3, ack: 1, retry: 2, ledger: 2, audit: 0, afterLock: 3, before: 1,
		messages: []string{"", "ack", "other", "pay"}, timers: []string{"", "tick", "retry"},
		sinks: []string{"audit", "other", "ledger"}, points: []string{"", "before-reply", "x", "after-lock"},
	}
)

// numberedWorld is a client that pays three operations with retries and a
// service that charges, audits, may crash and answers, over a lossy,
// duplicating, slow and jittery network, with crashes and pauses — every kind of name and every kind
// of choice — numbered by n.
func numberedWorld(t *testing.T, n numbering, ch sim.Chooser, rec sim.Recorder) *sim.World {
	const client, service = sim.NodeID(0), sim.NodeID(1)
	clientNode := &fnNode{
		start: func(ctx *sim.Context) {
			for op := 1; op <= ctx.Ops(); op++ {
				ctx.Send(service, sim.Message{Kind: n.pay, Op: sim.OpID(op), Attempt: 1})
				ctx.After(40, sim.Timer{Kind: n.retry, Op: sim.OpID(op), Attempt: 1})
			}
		},
		receive: func(ctx *sim.Context, m sim.Message) {
			if _, done := ctx.Get(0, int64(m.Op), m.Op); !done {
				ctx.Put(0, int64(m.Op), m.Op, sim.Record{State: 1})
				ctx.Outcome(m.Op, m.Value, 200)
			}
		},
		timer: func(ctx *sim.Context, tm sim.Timer) {
			if _, done := ctx.Get(0, int64(tm.Op), tm.Op); done || tm.Attempt >= 4 {
				return
			}
			ctx.Send(service, sim.Message{Kind: n.pay, Op: tm.Op, Attempt: tm.Attempt + 1})
			ctx.After(40, sim.Timer{Kind: n.retry, Op: tm.Op, Attempt: tm.Attempt + 1})
		},
	}
	serviceNode := &fnNode{
		receive: func(ctx *sim.Context, m sim.Message) {
			if ctx.CrashPoint(n.afterLock, &m) {
				return
			}
			ctx.Effect(n.ledger, m.Op, int64(m.Op))
			if m.Attempt == 1 { // the audit sees first attempts only, so the sinks' counts differ
				ctx.Effect(n.audit, m.Op, int64(m.Op))
			}
			if ctx.CrashPoint(n.before, &m) {
				return
			}
			ctx.Send(m.From, sim.Message{Kind: n.ack, Op: m.Op, Attempt: m.Attempt, Value: int64(m.Op) * 10})
		},
	}
	net := network.New(2)
	lossy := network.Link{Delay: 5, Jitter: 20}
	lossy.Probability[sim.ChoiceLoss], lossy.Probability[sim.ChoiceDuplicate], lossy.Probability[sim.ChoiceSlow] = 0.2, 0.2, 0.1
	lossy.Hold[sim.ChoiceSlow] = 60
	*net.Link(client, service), *net.Link(service, client) = lossy, lossy
	cfg := &sim.Config{
		Topology: &sim.Topology{
			Nodes: []sim.NodeSpec{
				{Name: "client", Tables: []sim.TableSpec{{Name: "done", Traced: true}}},
				{Name: "service", Crashable: true, CrashProbability: 0.1, PauseProbability: 0.1, PauseFor: 25, RestartAfter: 30},
			},
			Messages: n.messages, Timers: n.timers, Sinks: n.sinks, Points: n.points,
		},
		Nodes:     []sim.Node{clientNode, serviceNode},
		Network:   net,
		Observe:   sim.Observation{Origin: client, Request: n.pay, Processor: service, Sinks: []sim.SinkID{n.ledger, n.audit}},
		Ops:       3,
		Semantics: sim.AtLeastOnce,
	}
	return newWorld(t, cfg, ch, rec)
}

// TestNumberingIsInvisible is "kinds by name" end to end: the same world
// with its message, timer, sink and crash-point kinds numbered in another
// order — as a renamed file would number them — draws the same faults,
// passes through the same fingerprints, ends with the same per-sink counts
// (listed in the order the observation names its sinks) and the same trace
// digest, for every seed.
func TestNumberingIsInvisible(t *testing.T) {
	faulty := 0
	for seed := uint64(1); seed <= 60; seed++ {
		a := numberedWorld(t, inOrder, sim.NewRandom(seed), nil)
		b := numberedWorld(t, permuted, sim.NewRandom(seed), nil)
		for step := 0; ; step++ {
			if a.Fingerprint() != b.Fingerprint() {
				t.Fatalf("seed %d step %d: fingerprints differ under two numberings", seed, step)
			}
			okA, okB := a.Step(), b.Step()
			if okA != okB {
				t.Fatalf("seed %d step %d: one numbering ended, the other did not", seed, step)
			}
			if !okA {
				break
			}
		}
		oa, ob := a.Outcome(), b.Outcome()
		if oa.Digest != ob.Digest {
			t.Fatalf("seed %d: digest %016x in order, %016x permuted", seed, oa.Digest, ob.Digest)
		}
		if x, y := fmt.Sprint(oa.Ops, oa.Faults), fmt.Sprint(ob.Ops, ob.Faults); x != y {
			t.Fatalf("seed %d: outcomes differ:\n%s\n%s", seed, x, y)
		}
		if oa.Faults.Total() > 0 {
			faulty++
		}
	}
	if faulty < 30 {
		t.Fatalf("only %d of 60 seeds drew a fault; the comparison proves little", faulty)
	}
	// Control: the digest does see names. The same numbers with "pay" and
	// "ack" named the other way round are another world.
	swapped := permuted
	swapped.messages = []string{"", "pay", "other", "ack"}
	if numberedWorld(t, swapped, sim.NewRandom(1), nil).Run().Digest == numberedWorld(t, permuted, sim.NewRandom(1), nil).Run().Digest {
		t.Fatal("renaming kinds left the digest unchanged")
	}
}
