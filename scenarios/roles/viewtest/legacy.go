package viewtest

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

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
