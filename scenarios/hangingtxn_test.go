package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles/kafka"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// verdicts counts, over a run, the leader's verification answers by
// status (0: verified; 48: INVALID_TXN_STATE).
type verdicts map[int32]int

func (v verdicts) Record(e *sim.Event) {
	if e.Kind == sim.EvSend && e.Msg.Kind == kafka.MsgTxnVerified {
		v[e.Msg.Status]++
	}
}

// TestLateWriteAcrossAbort: kafka-hanging-transaction's three protocols
// against a produce held past the producer's abort (KIP-890).
//
//   - transactions v1 (no epoch bump at EndTxn): explore finds the late
//     write committed with the next transaction, with 2 late faults;
//   - v2 (an epoch bump at every EndTxn): no schedule with ≤ 2 late
//     faults breaks exactly-once — the late write carries an old epoch;
//   - v1 with leader verification: the leader refuses late writes that
//     arrive after the abort (48) in some runs and still lets one through
//     in others (a duplicate), over the first 200 seeds.
func TestLateWriteAcrossAbort(t *testing.T) {
	sc, err := scenarios.Lookup("kafka-hanging-transaction")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		version string
		holds   bool
	}{{"v1", false}, {"v2", true}} {
		faults, _, err := sc.ExploreFaults("late") // the scenario's late-ms (1.1 s), not the kind's 60 s
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := sc.Config(scenarios.Settings{Semantics: sim.Transactional, Ops: 2, Faults: faults, Params: map[string]string{"transactions": c.version}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := search.Explore(cfg, search.Options{MaxFaults: 2, Promise: sim.ExactlyOne})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete || res.Holds != c.holds {
			t.Errorf("explore transactions=%s ≤2 late: complete=%v holds=%v, want holds=%v", c.version, res.Complete, res.Holds, c.holds)
		}
	}
	refused, dups := 0, 0
	for seed := uint64(1); seed <= 200 && (refused == 0 || dups == 0); seed++ {
		v := verdicts{}
		o, err := runs.Outcome(sc, scenarios.Settings{Semantics: sim.Transactional, Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{"verify": "on"}}, sim.NewRandom(seed), v)
		if err != nil {
			t.Fatal(err)
		}
		refused += v[48]
		if o.MaxEffects() > 1 {
			dups++
		}
	}
	if refused == 0 || dups == 0 {
		t.Errorf("verify=on over 200 seeds: %d late writes refused (48), %d runs with a duplicate; want both", refused, dups)
	}
}
