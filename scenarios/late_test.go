package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// TestLateFaultReachesTheTTL: the explorer does not enumerate delays, so
// without the late fault a 30s dedup TTL is never reached in a short
// exploration; with it, one message held late-ms (60s) past its retry
// meets an expired entry and is billed twice. A TTL above the horizon
// plus a margin is proved against the same bound, and the counterexample
// replays to the same digest.
func TestLateFaultReachesTheTTL(t *testing.T) {
	explore := func(kinds, ttl string, maxFaults int) (*sim.Config, *search.Result) {
		cfg := exploreConfig(t, "expired-dedup-ttl", sim.Idempotent, 2, kinds, map[string]string{"ttl": ttl})
		res, err := search.Explore(cfg, search.Options{MaxFaults: maxFaults, Promise: sim.ExactlyOne})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete {
			t.Fatalf("ttl=%s faults=%s: search incomplete (%s)", ttl, kinds, res.Cut)
		}
		return cfg, res
	}
	if _, res := explore("loss,ack-loss", "30s", 1); !res.Holds {
		t.Fatalf("without late, ttl=30s should look safe to a one-fault search: %s", res.Why)
	}
	cfg, res := explore("loss,ack-loss,late", "30s", 1)
	if res.Holds {
		t.Fatal("ttl=30s with a late fault: the explorer found no duplicate")
	}
	plan := shrunk(t, cfg, sim.ExactlyOne, res)
	if len(plan) != 1 || plan[0].Kind != sim.ChoiceLate {
		t.Fatalf("want one late message, got %v", plan)
	}
	v1, w1, err := search.Violates(cfg, sim.ExactlyOne, plan, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	v2, w2, err := search.Violates(cfg, sim.ExactlyOne, plan, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !v1 || !v2 || w1.Digest() != w2.Digest() {
		t.Fatalf("replay of the late plan: violated %v/%v, digests %x/%x", v1, v2, w1.Digest(), w2.Digest())
	}
	if _, res := explore("loss,ack-loss,crash,late", "55s", 1); res.Holds {
		t.Fatal("ttl=55s is under the 60s late horizon, yet the search proved it")
	}
	if _, res := explore("loss,ack-loss,crash,late", "90s", 1); !res.Holds {
		t.Fatalf("ttl=90s > 60s horizon + margin should hold with one fault: %s", res.Why)
	}
	if _, res := explore("loss,ack-loss,crash,late", "90s", 2); res.Holds {
		t.Fatal("two late faults stack to 120s, yet ttl=90s was proved with two faults")
	}
}
