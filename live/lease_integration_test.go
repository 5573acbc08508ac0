//go:build integration

package live

import (
	"testing"

	"github.com/oncesim/once/sim"
)

// stuck-processing-lease live, as the simulator runs it: a gateway call
// lost on the service → gateway link (the Decider's keyed loss) leaves the
// key PROCESSING. Without a lease (lease=0) every retry gets 409 and the
// payment never completes — seed 1's op-3, seed 2's op-2, nothing charged,
// the verdict violated; with lease=1s a later retry takes the key over,
// asks the gateway and charges once. Each operation's outcome is the
// simulator's.
func testStuckProcessingLease(t *testing.T, dsn string) {
	for _, seed := range []uint64{1, 2} {
		simNo, noLease := runBoth(t, dsn, "stuck-processing-lease", sim.Idempotent, seed, map[string]string{"lease": "0"})
		stuck := 0
		for i, op := range noLease.Ops {
			if op.Outcome != simNo.Ops[i].Outcome || op.Effects != simNo.Ops[i].Effects {
				t.Errorf("lease=0 seed %d op-%d: live %v with %d charges, simulated %v with %d",
					seed, i+1, op.Outcome, op.Effects, simNo.Ops[i].Outcome, simNo.Ops[i].Effects)
			}
			if op.Outcome == sim.OpNeverCompletes {
				stuck++
				if op.Effects != 0 || op.Attempts < 2 {
					t.Errorf("lease=0 seed %d op-%d never completes with %d charges after %d attempts", seed, i+1, op.Effects, op.Attempts)
				}
			}
		}
		if stuck == 0 || noLease.Status != sim.Violated {
			t.Errorf("lease=0 seed %d: %d operations never complete, status %s (%s); want one stuck and violated", seed, stuck, noLease.Status, noLease.Why)
		}
		_, lease := runBoth(t, dsn, "stuck-processing-lease", sim.Idempotent, seed, map[string]string{"lease": "1s"})
		if lease.Count(sim.ExactlyOnce) != len(lease.Ops) || lease.Status != sim.Held {
			t.Errorf("lease=1s seed %d: effects %v, %s; want every payment charged once", seed, effects(lease), lease.Why)
		}
		taken := false
		for _, op := range lease.Ops {
			taken = taken || op.Attempts > 1
		}
		if !taken {
			t.Errorf("lease=1s seed %d: no payment needed a retry: the lease was never taken over (%v)", seed, effects(lease))
		}
	}
}

func TestIntegrationStuckProcessingLeaseSQLite(t *testing.T) { testStuckProcessingLease(t, "") }

func TestIntegrationStuckProcessingLeasePostgres(t *testing.T) {
	testStuckProcessingLease(t, postgresDSN(t))
}
