// Package viewtest holds the property checks every role family runs on its
// typed protocol views and table keys: decode(encode(v)) == v, a message
// keeps its envelope or kind, the slots a view does not map hold only what
// its encoder puts there, and a tuple key tells its pairs apart. The views'
// generated test (views_gen_test.go, written by viewgen) calls Envelope,
// Message, MessageOfKind, Row and Timer; only tests import it.
package viewtest

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// Any draws a V over the whole range of every field's Go type.
func Any[V any](rt *rapid.T) V { return rapid.Make[V]().Draw(rt, "view") }

// AnyEnvelope draws a message envelope: any kind, operation and attempt.
var AnyEnvelope = rapid.Custom(func(t *rapid.T) roles.Envelope {
	return roles.Envelope{
		Kind:    sim.MsgKind(rapid.Uint16().Draw(t, "kind")),
		Op:      sim.OpID(rapid.Int32().Draw(t, "op")),
		Attempt: rapid.Int32().Draw(t, "attempt"),
	}
})

// Envelope checks a view whose encode takes the envelope: decode(encode(v,
// e)) == v, the message's other slots are e's and zero, and onto(v, m)
// keeps every slot of m but the view's (slots, space-separated).
func Envelope[V comparable](encode func(V, roles.Envelope) sim.Message, onto func(V, sim.Message) sim.Message, decode func(sim.Message) V, slots string) func(*testing.T) {
	return check(decode, slots, func(rt *rapid.T, v V) (sim.Message, sim.Message) {
		m := rapid.Make[sim.Message]().Draw(rt, "delivered")
		roundTrip(rt, v, onto(v, m), decode, slots, m)
		e := AnyEnvelope.Draw(rt, "envelope")
		return encode(v, e), e.Message()
	}, func(v V) sim.Message { return encode(v, roles.Envelope{}) })
}

// Message checks a view whose encode stamps its own kind: decode(encode(v))
// == v and the message's other slots are fixed's (its kind, constants,
// zero).
func Message[V comparable](encode func(V) sim.Message, decode func(sim.Message) V, slots string, fixed sim.Message) func(*testing.T) {
	return check(decode, slots, func(_ *rapid.T, v V) (sim.Message, sim.Message) { return encode(v), fixed }, encode)
}

// MessageOfKind checks a view whose encode takes the kind: as Message, for
// any kind.
func MessageOfKind[V comparable](encode func(V, sim.MsgKind) sim.Message, decode func(sim.Message) V, slots string, fixed sim.Message) func(*testing.T) {
	return check(decode, slots, func(rt *rapid.T, v V) (sim.Message, sim.Message) {
		want := fixed
		want.Kind = rapid.Make[sim.MsgKind]().Draw(rt, "kind")
		return encode(v, want.Kind), want
	}, func(v V) sim.Message { return encode(v, 1) })
}

// Row checks a table row view: decode(encode(v)) == v and the row's other
// slots are fixed's (constants, zero).
func Row[V comparable](encode func(V) sim.Record, decode func(sim.Record) V, slots string, fixed sim.Record) func(*testing.T) {
	return check(decode, slots, func(_ *rapid.T, v V) (sim.Record, sim.Record) { return encode(v), fixed }, encode)
}

// Timer checks a timer view: decode(timer(v, op)) == v and the timer's
// other slots are fixed's (its kind, zero) with operation op.
func Timer[V comparable](timer func(V, sim.OpID) sim.Timer, decode func(sim.Timer) V, slots string, fixed sim.Timer) func(*testing.T) {
	return check(decode, slots, func(rt *rapid.T, v V) (sim.Timer, sim.Timer) {
		want := fixed
		want.Op = rapid.Make[sim.OpID]().Draw(rt, "op")
		return timer(v, want.Op), want
	}, func(v V) sim.Timer { return timer(v, 1) })
}

// check is the test of a view: for every v drawn over its fields' whole
// Go types, encode(rt, v) returns v encoded and what the encoding must
// hold outside slots, and decode must give v back; and a round trip
// through once allocates nothing (the engine copies messages and rows by
// value on its hot path, and a view must not add to it).
func check[V comparable, E any](decode func(E) V, slots string, encode func(*rapid.T, V) (got, want E), once func(V) E) func(*testing.T) {
	return func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			v := Any[V](rt)
			got, want := encode(rt, v)
			roundTrip(rt, v, got, decode, slots, want)
		})
		var v V
		if n := testing.AllocsPerRun(10, func() { v = decode(once(v)) }); n != 0 {
			t.Fatalf("%v allocations per round trip, want 0", n)
		}
	}
}

// roundTrip fails rt unless decode(enc) == v and every field of enc not
// named in slots equals want's.
func roundTrip[V comparable, E any](rt *rapid.T, v V, enc E, decode func(E) V, slots string, want E) {
	if got := decode(enc); got != v {
		rt.Fatalf("decode(encode(%+v)) = %+v (encoded as %+v)", v, got, enc)
	}
	mapped := strings.Fields(slots)
	got, w := reflect.ValueOf(enc), reflect.ValueOf(want)
	for i := range got.NumField() {
		name := got.Type().Field(i).Name
		if !slices.Contains(mapped, name) && !got.Field(i).Equal(w.Field(i)) {
			rt.Fatalf("encode(%+v).%s = %v, want %v: a slot the view does not map", v, name, got.Field(i), w.Field(i))
		}
	}
}

// RowRoundTrip checks that decode(encode(v)) == v for a row view whose
// codec is hand-written, over the values draw makes.
func RowRoundTrip[V comparable](t *testing.T, draw func(*rapid.T) V, encode func(V) sim.Record, decode func(sim.Record) V) {
	t.Helper()
	rapid.Check(t, func(rt *rapid.T) {
		v := draw(rt)
		if got := decode(encode(v)); got != v {
			rt.Fatalf("decode(encode(%+v)) = %+v", v, got)
		}
	})
}

// PairKeyInjective checks that key never maps two different pairs of its
// documented ranges (drawn from hi and lo) to one key.
func PairKeyInjective(t *testing.T, hi, lo *rapid.Generator[int64], key func(hi, lo int64) int64) {
	t.Helper()
	rapid.Check(t, func(rt *rapid.T) {
		h1, l1, h2, l2 := hi.Draw(rt, "hi1"), lo.Draw(rt, "lo1"), hi.Draw(rt, "hi2"), lo.Draw(rt, "lo2")
		if k1, k2 := key(h1, l1), key(h2, l2); (h1 != h2 || l1 != l2) == (k1 == k2) {
			rt.Fatalf("(%d,%d)→%d and (%d,%d)→%d", h1, l1, k1, h2, l2, k2)
		}
	})
}
