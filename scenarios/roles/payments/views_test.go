package payments

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/viewtest"
	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// The views viewgen writes are checked by views_gen_test.go; keyRow's
// codec is hand-written (its state says which fields Status and Value
// hold), so it round-trips here, over both shapes.
func TestKeyRowRoundTrip(t *testing.T) {
	viewtest.RowRoundTrip(t, func(rt *rapid.T) keyRow {
		v := keyRow{State: rapid.SampledFrom([]int32{roles.KeyProcessing, roles.KeyCompleted, intentUnknown}).Draw(rt, "state"),
			Body: fingerprint(rapid.Int64().Draw(rt, "body")), At: sim.Time(rapid.Int64().Draw(rt, "at"))}
		if v.completed() {
			v.Status, v.Response = rapid.Int32().Draw(rt, "status"), rapid.Int64().Draw(rt, "response")
		} else {
			v.Op, v.Attempt = sim.OpID(rapid.Int32().Draw(rt, "op")), rapid.Int32().Draw(rt, "attempt")
		}
		return v
	}, keyRow.encode, decodeKeyRow)
}
