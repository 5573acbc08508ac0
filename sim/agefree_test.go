package sim

import (
	"bytes"
	"testing"
)

// ageFreeWorld is an echo world whose node a has an age-free traced table
// (0) beside a table that keeps times (1), recording into tr.
func ageFreeWorld(t *testing.T, tr Recorder) *World {
	t.Helper()
	e := &echo{startAfter: 5}
	cfg := &Config{
		Topology: &Topology{Nodes: []NodeSpec{
			{Name: "a", Tables: []TableSpec{{Name: "keys", Traced: true, AgeFree: true}, {Name: "timed", Traced: true}}},
			{Name: "b", Tables: []TableSpec{{Name: "t", Durable: true}}},
		}},
		Nodes:   []Node{e, e},
		Network: dropKind9{},
		Observe: Observation{Origin: 0, Request: 1, Processor: 1, Sinks: []SinkID{0}},
		Ops:     1, Semantics: AtMostOnce,
	}
	w, err := NewWorld(cfg, Defaults{}, tr)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestAgeFreeTableHasNoTimes: whatever a role writes into an age-free
// table, with or without a time of its own, every way of reading it back —
// Context.Get, Rows().At, Rows().Get — and the trace's Put and Get events
// give At = 0, so no role, invariant or metric can tell when a row was
// written; the table beside it keeps its times.
func TestAgeFreeTableHasNoTimes(t *testing.T) {
	var tr Trace
	w := ageFreeWorld(t, &tr)
	stepUntil(t, w, inFlight)
	w.now = 50
	ctx := &Context{w: w, node: 0}
	ctx.Put(0, 1, 1, Record{State: 1})
	ctx.Put(0, 2, 1, Record{State: 1, At: 7}) // a role's own time is not kept either
	ctx.Put(1, 1, 1, Record{State: 1})
	w.now = 80
	for key := int64(1); key <= 2; key++ {
		if r, ok := ctx.Get(0, key, 1); !ok || r.At != 0 {
			t.Errorf("Get(age-free, %d) = %+v, %v; want At 0", key, r, ok)
		}
		if r, ok := ctx.Rows(0).Get(key); !ok || r.At != 0 {
			t.Errorf("Rows(age-free).Get(%d) = %+v, %v; want At 0", key, r, ok)
		}
	}
	for i := range ctx.Rows(0).Len() {
		if _, r := ctx.Rows(0).At(i); r.At != 0 {
			t.Errorf("Rows(age-free).At(%d) = %+v; want At 0", i, r)
		}
	}
	if r, _ := ctx.Get(1, 1, 1); r.At != 50 {
		t.Errorf("the timed table's row: At %d, want 50", r.At)
	}
	for _, e := range tr.Events {
		if (e.Kind == EvStorePut || e.Kind == EvStoreGet) && e.Node == 0 && e.Label == 0 && e.Rec.At != 0 {
			t.Errorf("trace event %v of the age-free table carries At %d", e.Kind, e.Rec.At)
		}
	}
}

// TestAgeFreeTableLeavesTimeOutOfTheFingerprint: two worlds whose age-free
// table holds the same rows, written at different times, have the same
// fingerprint and encoding, also when the node is paused holding a write
// of that table; rows of the timed table written at different times
// still tell worlds apart.
func TestAgeFreeTableLeavesTimeOutOfTheFingerprint(t *testing.T) {
	write := func(at Time, table TableID, pause bool) *World {
		w := ageFreeWorld(t, nil)
		stepUntil(t, w, inFlight)
		base := w.now
		w.now = at
		ctx := &Context{w: w, node: 0}
		ctx.Put(table, 1, 1, Record{State: 1, Value: 9})
		if pause {
			ns := &w.nodes[0]
			ns.paused, ns.resumeAt = true, base+100
			ctx.Put(table, 2, 1, Record{State: 1}) // held until the resume
			ctx.Get(table, 3, 1)                   // found nothing: no row, no time
		}
		w.now = base + 20
		return w
	}
	for _, pause := range []bool{false, true} {
		a, b := write(10, 0, pause), write(15, 0, pause)
		if a.Fingerprint() != b.Fingerprint() || !bytes.Equal(a.AppendState(nil), b.AppendState(nil)) {
			t.Errorf("paused=%v: rows of the age-free table written at 10 and at 15 tell the worlds apart", pause)
		}
		a, b = write(10, 1, pause), write(15, 1, pause)
		if a.Fingerprint() == b.Fingerprint() || bytes.Equal(a.AppendState(nil), b.AppendState(nil)) {
			t.Errorf("paused=%v: rows of the timed table written at 10 and at 15 do not tell the worlds apart", pause)
		}
	}
}

// TestHeldEventsWithoutRowsAreTimeless: a paused node holding events that
// carry no timed row — an effect, a Get that found nothing, a write of an
// age-free table — is the same state when the whole world is shifted in
// time. (Their At used to be encoded as now − 0: the absolute time.)
func TestHeldEventsWithoutRowsAreTimeless(t *testing.T) {
	w := ageFreeWorld(t, nil)
	stepUntil(t, w, inFlight)
	ctx := &Context{w: w, node: 0}
	ns := &w.nodes[0]
	ns.paused, ns.resumeAt = true, w.now+100
	ctx.Put(0, 1, 1, Record{State: 1})
	ctx.Get(1, 3, 1)
	ctx.Effect(0, 1, 4)
	shifted := w.Clone()
	shifted.now += 1000
	shifted.nodes[0].resumeAt += 1000
	for i := range shifted.q.items {
		shifted.q.items[i].at += 1000
	}
	if w.Fingerprint() != shifted.Fingerprint() || !bytes.Equal(w.AppendState(nil), shifted.AppendState(nil)) {
		t.Error("a paused world shifted in time is another state")
	}
}
