package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// TestStoreOutageIsAChosenFault: the key store's outage in
// store-outage-fail-closed is a fault the Chooser decides — a crash of the
// key store at its store-down point — not a fixed window from time 0. It
// used to be a partition of the first second, so explore never branched
// on it and a one-op search could not find fail open's duplicate. Now the
// search finds it (one lost response, the store down on the retry) and
// proves fail closed against the same bound, and random runs take the
// store down at different moments.
func TestStoreOutageIsAChosenFault(t *testing.T) {
	explore := func(onDown string) (*sim.Config, *search.Result) {
		cfg := exploreConfig(t, "store-outage-fail-closed", sim.Idempotent, 1, "ack-loss,crash", map[string]string{"on-store-down": onDown})
		res, err := search.Explore(cfg, search.Options{MaxFaults: 2, Promise: sim.ExactlyOne})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete {
			t.Fatalf("on-store-down=%s: search incomplete (%s)", onDown, res.Cut)
		}
		return cfg, res
	}
	cfg, res := explore("fail-open")
	if res.Holds {
		t.Fatal("fail open: explore found no duplicate: the outage is not a choice")
	}
	down := false
	for _, f := range shrunk(t, cfg, sim.ExactlyOne, res) {
		if f.Kind == sim.ChoiceCrash && cfg.Topology.Nodes[f.Node].Name == "keys" && cfg.Topology.Points[f.Point] == "store-down" {
			down = true
		}
	}
	if !down {
		t.Error("fail open's counterexample does not take the key store down")
	}
	if _, res := explore("fail-closed"); !res.Holds {
		t.Errorf("fail closed: %s", res.Why)
	}

	// Random runs draw the outage: the store goes down at different times.
	sc, err := scenarios.Lookup("store-outage-fail-closed")
	if err != nil {
		t.Fatal(err)
	}
	set := sc.Expect[0].Settings(sc)
	when := map[sim.Time]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		var first storeCrash
		if _, err := runs.Outcome(sc, set, sim.NewRandom(seed), &first); err != nil {
			t.Fatal(err)
		}
		if first.seen {
			when[first.at] = true
		}
	}
	if len(when) < 3 {
		t.Errorf("over 40 seeds the key store went down at %d distinct times, want several", len(when))
	}
}

// storeCrash records the time of the first crash in a trace.
type storeCrash struct {
	seen bool
	at   sim.Time
}

func (s *storeCrash) Record(e *sim.Event) {
	if e.Kind == sim.EvCrash && !s.seen {
		s.seen, s.at = true, e.At
	}
}
