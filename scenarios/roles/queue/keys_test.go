package queue

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// TestTableKeysInjective: the transport dedup key (op, attempt) and the
// order-line unique index (order, line) tell their pairs apart over the
// documented ranges.
func TestTableKeysInjective(t *testing.T) {
	check := func(t *testing.T, hi, lo *rapid.Generator[int64], key func(hi, lo int64) int64) {
		rapid.Check(t, func(rt *rapid.T) {
			h1, l1, h2, l2 := hi.Draw(rt, "hi1"), lo.Draw(rt, "lo1"), hi.Draw(rt, "hi2"), lo.Draw(rt, "lo2")
			if k1, k2 := key(h1, l1), key(h2, l2); (h1 != h2 || l1 != l2) == (k1 == k2) {
				rt.Fatalf("(%d,%d)→%d and (%d,%d)→%d", h1, l1, k1, h2, l2, k2)
			}
		})
	}
	t.Run("opAttemptKey", func(t *testing.T) {
		check(t, rapid.Int64Range(0, 1<<31-1), rapid.Int64Range(0, roles.TupleLoMax(roles.AttemptDigits)),
			func(op, a int64) int64 { return opAttemptKey(sim.OpID(op), int32(a)) })
	})
	t.Run("orderLineKey", func(t *testing.T) {
		check(t, rapid.Int64Range(0, roles.TupleHiMax(lineDigits)), rapid.Int64Range(0, roles.TupleLoMax(lineDigits)), orderLineKey)
	})
}
