// Package viewtest holds the property checks every role family runs on its
// typed protocol views and table keys: decode(encode(v)) == v, a message
// keeps its envelope or kind, and a tuple key tells its pairs apart. Only
// tests import it.
package viewtest

import (
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

// MessageRoundTrip checks that decode(encode(v, e)) == v and that the
// envelope e survives the encoding, for views whose encode takes the
// envelope.
func MessageRoundTrip[V comparable](t *testing.T, draw func(*rapid.T) V, encode func(V, roles.Envelope) sim.Message, decode func(sim.Message) V) {
	t.Helper()
	rapid.Check(t, func(rt *rapid.T) {
		v, e := draw(rt), AnyEnvelope.Draw(rt, "envelope")
		m := encode(v, e)
		if got := decode(m); got != v {
			rt.Fatalf("decode(encode(%+v)) = %+v", v, got)
		}
		if (roles.Envelope{Kind: m.Kind, Op: m.Op, Attempt: m.Attempt}) != e {
			rt.Fatalf("envelope %+v became %+v", e, m)
		}
	})
}

// KindRoundTrip checks that decode(encode(v)) == v and that encode stamps
// kind, for views that know their own message kind.
func KindRoundTrip[V comparable](t *testing.T, kind sim.MsgKind, encode func(V) sim.Message, decode func(sim.Message) V) {
	t.Helper()
	rapid.Check(t, func(rt *rapid.T) {
		v := Any[V](rt)
		m := encode(v)
		if m.Kind != kind {
			rt.Fatalf("encode(%+v).Kind = %d, want %d", v, m.Kind, kind)
		}
		if got := decode(m); got != v {
			rt.Fatalf("decode(encode(%+v)) = %+v", v, got)
		}
	})
}

// RowRoundTrip checks that decode(encode(v)) == v for a table row view.
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
