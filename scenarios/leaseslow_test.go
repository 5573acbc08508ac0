package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// TestLeaseFixAgainstWhatItHoldsAgainst: stuck-processing-lease's lease
// bounds the holder, not its requests still in the network. With one slow
// fault (once explore stuck-processing-lease --semantics idem --set
// lease=1s --faults loss,slow) the first charge is delayed, a retry takes
// the key over after the lease, the lookup says not found, it charges
// again, and the delayed charge lands: two charges. The lease row is
// proved against loss only (the scenario's explore faults); the row with
// a gateway that deduplicates charges by the key holds under slow too,
// proved here with ≤ 2 faults of loss and slow.
func TestLeaseFixAgainstWhatItHoldsAgainst(t *testing.T) {
	for _, c := range []struct {
		params map[string]string
		holds  bool
	}{
		{map[string]string{"lease": "1s"}, false},
		{map[string]string{"lease": "1s", "provider": "idempotent"}, true},
	} {
		cfg := exploreConfig(t, "stuck-processing-lease", sim.Idempotent, 1, "loss,slow", c.params)
		res, err := search.Explore(cfg, search.Options{MaxFaults: 2, Promise: sim.ExactlyOne})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete || res.Holds != c.holds {
			t.Errorf("%v, loss,slow ≤2: complete=%v holds=%v, want holds=%v (%s)", c.params, res.Complete, res.Holds, c.holds, res.Why)
		}
	}
}
