package queue

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/viewtest"
	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// TestTableKeysInjective: the transport dedup key (op, attempt) and the
// order-line unique index (order, line) tell their pairs apart over the
// documented ranges.
func TestTableKeysInjective(t *testing.T) {
	t.Run("opAttemptKey", func(t *testing.T) {
		viewtest.PairKeyInjective(t, rapid.Int64Range(0, 1<<31-1), rapid.Int64Range(0, roles.TupleLoMax(roles.AttemptDigits)),
			func(op, a int64) int64 { return opAttemptKey(sim.OpID(op), int32(a)) })
	})
	t.Run("orderLineKey", func(t *testing.T) {
		viewtest.PairKeyInjective(t, rapid.Int64Range(0, roles.TupleHiMax(lineDigits)), rapid.Int64Range(0, roles.TupleLoMax(lineDigits)), orderLineKey)
	})
}
