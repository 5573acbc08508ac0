package generals

import (
	"testing"

	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// Every view round-trips over its documented range.
func TestViewsRoundTrip(t *testing.T) {
	t.Run("messenger", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			v := messenger{Round: rapid.Int32().Draw(rt, "round")}
			kind := sim.MsgKind(rapid.Uint8().Draw(rt, "kind"))
			m := v.encode(kind)
			if got := decodeMessenger(m); got != v || m.Kind != kind || m.Op != generalsOp {
				rt.Fatalf("encode(%+v) = %+v, decoded %+v", v, m, got)
			}
		})
	})
	t.Run("receivedRow", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			v := receivedRow{Count: rapid.Int64().Draw(rt, "count")}
			if got := decodeReceivedRow(v.encode()); got != v {
				rt.Fatalf("decode(encode(%+v)) = %+v", v, got)
			}
		})
	})
}
