package kafka

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles/viewtest"
	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// The views viewgen writes are checked by views_gen_test.go; these two
// codecs are hand-written on top of generated ones: verifyTxn carries a
// produce, and db-commit-failed is a db-commit of another kind.
func TestHandWrittenViewsRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		v := viewtest.Any[verifyTxn](rt)
		v.P.Count = v.Err // one slot, Status: the answer's Err, read back as the produce's count too
		kind := sim.MsgKind(rapid.Uint16().Draw(rt, "kind"))
		m := v.encode(kind)
		if got := decodeVerifyTxn(m); got != v || m.Kind != kind {
			rt.Fatalf("verifyTxn %+v: encoded %+v, decoded %+v", v, m, got)
		}
		c := viewtest.Any[DBCommit](rt)
		f := c.EncodeFailed()
		if got := DecodeDBCommit(f); got != c || f.Kind != MsgDBCommitFailed {
			rt.Fatalf("DBCommit %+v: failed answer %+v, decoded %+v", c, f, got)
		}
	})
}
