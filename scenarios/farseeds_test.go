package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestFixRowsHoldAtFarSeeds: two fix rows held over 200 seeds and broke
// far out (once matrix --seeds 3000 / 20000 --check), each by a mechanism
// the row never meant to claim against:
//
//   - dedup-store-growth, idem (ttl 30s) and capacity=40, seed 2945: seven
//     lost publish-acks made op-73's producer publish again 35 s later,
//     past the ttl — the producer retried for ever, a horizon no ttl
//     covers. It now gives a record up after 6 publishes (a delivery
//     timeout), a 25 s horizon the 30 s ttl covers.
//   - stuck-processing-lease, lease=1s, seed 5407: all 8 attempts of op-1
//     met a lost gateway call and were answered 503; the client gave up
//     with no final answer and the run counted op-1 lost. The 503 to its
//     last attempt is now the answer it gives up with, a designed refusal
//     (observe.refused), so the run is =1 with op-1 refused, not charged.
func TestFixRowsHoldAtFarSeeds(t *testing.T) {
	for _, c := range []struct {
		name   string
		params map[string]string
		seed   uint64
	}{
		{"dedup-store-growth", nil, 2945},
		{"dedup-store-growth", map[string]string{"capacity": "40"}, 2945},
		{"stuck-processing-lease", map[string]string{"lease": "1s"}, 5407},
	} {
		sc, err := scenarios.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		o, err := runs.Outcome(sc, scenarios.Settings{Semantics: sim.Idempotent, Ops: sc.Ops, Faults: sc.Faults, Params: c.params}, sim.NewRandom(c.seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		r := o.RunOutcome()
		if good := r.Count(sim.OpExactlyOnce) + r.Count(sim.OpRefused); r.End != sim.RunCompleted || good != sc.Ops {
			t.Errorf("%s %v seed %d: %v, outcomes %v, want every operation once or refused", c.name, c.params, c.seed, r.End, r.Counts)
		}
	}
}
