//go:build integration

package brokers

import (
	"strings"
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/sim"
)

// TestIntegrationRedisStreamsAutoclaim: redis-streams-autoclaim on a real
// Redis stream. Seed 2 kills a consumer after op-2's row and before its
// XACK: the entry stays pending, Redis does not deliver it again by
// itself, and after min-idle-time a consumer's XAUTOCLAIM takes it with
// delivery count 2 (XPENDING). At least once, op-2 is billed twice; with
// the row's unique key (idem) the claimer inserts nothing. Seed 2 because
// neither consumer is crashed with the claimed op-2 (which consumer's
// XAUTOCLAIM comes first is a real race: docs/broker-agreement.md). Seed 1 under
// at-most-once kills a consumer after its NOACK read of op-2: nothing is
// pending, op-2 is never billed. Each run agrees with the simulator op by
// op on the same seed.
func TestIntegrationRedisStreamsAutoclaim(t *testing.T) {
	for _, c := range []struct {
		sem     sim.Semantics
		seed    uint64
		op      int
		effects int32
		status  sim.Status
		want    []string
	}{
		{sim.AtLeastOnce, 2, 2, 2, sim.Held, []string{"after op-2's row, before XACK: the entry stays pending, delivery count 1",
			"XAUTOCLAIM → entry", "(op-2), pending and idle past min-idle-time 1000 ms; XPENDING says delivery count 2", "ledger: op-2 billed again"}},
		{sim.Idempotent, 2, 2, 1, sim.Held, []string{"XAUTOCLAIM → entry", "ledger: op-2's row exists (INSERT … ON CONFLICT (op) DO NOTHING)"}},
		{sim.AtMostOnce, 1, 2, 0, sim.Held, []string{"after its NOACK read of op-2, before the row: the entry is in no pending entries list, lost"}},
	} {
		r, ev := runOn(t, Redis, "redis-streams-autoclaim", c.sem, nil, c.seed, "")
		name := c.sem.Alias()
		if got := effectsOf(r, c.op); got != c.effects || r.Outcome.Status != c.status || !r.Outcome.Finished() {
			t.Errorf("%s seed %d: op-%d billed %d times, %s (%s); want %d, %s\n%s", name, c.seed, c.op, got, r.Outcome.Status, r.Outcome.End, c.effects, c.status, ev)
		}
		for _, w := range c.want {
			if !strings.Contains(ev, w) {
				t.Errorf("%s seed %d: the evidence lacks %q:\n%s", name, c.seed, w, ev)
			}
		}
		sc, set := faultSettings(t, "redis-streams-autoclaim", c.sem, nil, nil)
		simulated, err := runs.Outcome(sc, set, sim.NewRandom(c.seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		if simulated.Status != r.Outcome.Status {
			t.Errorf("%s seed %d: the simulator's verdict %s, Redis' %s", name, c.seed, simulated.Status, r.Outcome.Status)
		}
		for i, o := range simulated.Ops {
			if o.Effects != r.Outcome.Ops[i].Effects {
				t.Errorf("%s seed %d: op-%d has %d effects in the simulator, %d on Redis\n%s", name, c.seed, i+1, o.Effects, r.Outcome.Ops[i].Effects, ev)
			}
		}
	}
}
