package sim_test

import (
	"testing"

	"github.com/oncesim/once/sim"
)

// counted is a world of one node that sends itself n messages, one after
// another, and counts the deliveries in a table: every step writes it.
func counted(n int64) *sim.Config {
	const counter = sim.TableID(0)
	node := &fnNode{
		start: func(ctx *sim.Context) { ctx.Send(ctx.Self(), sim.Message{Kind: 1, Op: 1, Attempt: 1}) },
		receive: func(ctx *sim.Context, m sim.Message) {
			r, _ := ctx.Get(counter, int64(m.Attempt), m.Op)
			r.Value++
			ctx.Put(counter, int64(m.Attempt), m.Op, r)
			if int64(m.Attempt) < n {
				m.Attempt++
				ctx.Send(ctx.Self(), m)
			}
		},
	}
	return &sim.Config{
		Topology: &sim.Topology{Nodes: []sim.NodeSpec{{Name: "counter", Tables: []sim.TableSpec{{Name: "counter", Durable: true}}}}},
		Nodes:    []sim.Node{node},
		Network:  &fixedNet{delay: 1},
		Ops:      1, Semantics: sim.AtMostOnce,
	}
}

// TestSearchAPI holds the engine's API for a search (snapshot.go) to what
// it says: FingerprintWith is Fingerprint with the caller's scratch,
// JudgeStatus is JudgeAgainst's status, StateBytes depends on the state
// and not on the buffer it was copied into, Pending reaches 0 when the
// world has nothing left to do, Chooser is the one set, and SetDigest(false)
// leaves the digest untouched.
func TestSearchAPI(t *testing.T) {
	const rows = 6
	w := newWorld(t, counted(rows), sim.Defaults{}, nil)
	if w.Pending() == 0 {
		t.Fatal("a new world has nothing pending: its nodes are not scheduled to start")
	}
	var seq sim.Sequence
	w.SetChooser(&seq)
	if w.Chooser() != sim.Chooser(&seq) {
		t.Fatalf("Chooser() = %v, want the chooser set", w.Chooser())
	}
	w.SetChooser(sim.Defaults{})
	used := newWorld(t, counted(rows+3), sim.Defaults{}, nil) // a buffer with a longer history: more rows, more capacity
	used.Run()
	var scratch []byte
	var sizes []int64
	for w.Step() {
		if got, want := w.FingerprintWith(&scratch), w.Fingerprint(); got != want {
			t.Fatalf("after %d events: FingerprintWith = %x, Fingerprint = %x", w.Events(), got, want)
		}
		for _, p := range []sim.Promise{sim.AtMostOne, sim.ExactlyOne} {
			if got, want := w.JudgeStatus(p), first(w.JudgeAgainst(p)); got != want {
				t.Fatalf("after %d events: JudgeStatus(%v) = %v, JudgeAgainst = %v", w.Events(), p, got, want)
			}
		}
		used.CopyFrom(w)
		if got, want := used.StateBytes(), w.StateBytes(); got != want {
			t.Fatalf("after %d events: a copy into a used buffer counts %d bytes, the world %d", w.Events(), got, want)
		}
		sizes = append(sizes, w.StateBytes())
	}
	if w.Ended() != sim.Quiescent || w.Pending() != 0 {
		t.Fatalf("the run ended %v with %d events pending, want quiescent with none", w.Ended(), w.Pending())
	}
	if sizes[len(sizes)-1] <= sizes[0] {
		t.Errorf("StateBytes did not grow with the table's rows: %v", sizes)
	}

	on := newWorld(t, counted(rows), sim.Defaults{}, nil)
	off := newWorld(t, counted(rows), sim.Defaults{}, nil)
	off.SetDigest(false)
	on.Run()
	off.Run()
	if off.Digest() != sim.NewDigest() || on.Digest() == sim.NewDigest() {
		t.Errorf("digest with SetDigest(false) %x, with the default %x; want %x (no event folded) and another", off.Digest(), on.Digest(), sim.NewDigest())
	}
	if off.Fingerprint() != on.Fingerprint() {
		t.Error("SetDigest changed the state's fingerprint")
	}
}

func first(s sim.Status, _ string) sim.Status { return s }
