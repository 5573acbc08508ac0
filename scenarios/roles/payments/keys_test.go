package payments

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/viewtest"
	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// TestTableKeysInjective: every (op, attempt) and (order key, step) table
// key of the family tells its pairs apart over the documented ranges.
func TestTableKeysInjective(t *testing.T) {
	ops := rapid.Int64Range(0, 1<<31-1)
	attempts := rapid.Int64Range(0, roles.TupleLoMax(roles.AttemptDigits))
	byAttempt := map[string]func(sim.OpID, int32) int64{
		"orderRun":    orderRun,
		"edgeRequest": edgeRequest,
		"sendKey":     sendKey,
		"perTryKey":   func(op sim.OpID, a int32) int64 { return int64(perTryKey(op, a)) },
	}
	for name, key := range byAttempt {
		t.Run(name, func(t *testing.T) {
			viewtest.PairKeyInjective(t, ops, attempts, func(op, a int64) int64 { return key(sim.OpID(op), int32(a)) })
		})
	}
	t.Run("orderStepKey", func(t *testing.T) {
		viewtest.PairKeyInjective(t, rapid.Int64Range(0, roles.TupleHiMax(stepDigits)), rapid.Int64Range(0, roles.TupleLoMax(stepDigits)),
			func(k, step int64) int64 { return int64(orderStepKey(k, int32(step))) })
	})
}

// TestTimedKeyCarriesItsTime: a time-ordered key gives back the tick it
// was made at (up to a day of virtual time, any operation below
// clientKeyBase), and a plain client key carries no time — so a
// fail-closed service answers it 400, never ages it as made at 0.
func TestTimedKeyCarriesItsTime(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		op := sim.OpID(rapid.Int32Range(1, clientKeyBase-1).Draw(rt, "op"))
		at := sim.Time(rapid.Int64Range(0, 24*3_600_000).Draw(rt, "at"))
		if got, ok := keyMadeAt(timedKey(op, at)); !ok || got != at {
			rt.Fatalf("keyMadeAt(timedKey(%d, %d)) = %d, %v", op, at, got, ok)
		}
		if _, ok := keyMadeAt(clientKey(op)); ok {
			rt.Fatalf("clientKey(%d) reads as time-ordered", op)
		}
	})
}
