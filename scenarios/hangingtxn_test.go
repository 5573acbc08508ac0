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

// hangRow is kafka-hanging-transaction's hanging-transaction row with
// extra parameters: four of six operations written by writer-b, the
// processor back under a new transactional id after a crash.
func hangRow(sc *scenarios.Scenario, faults string, extra map[string]string) scenarios.Settings {
	params := map[string]string{"second-writer": "4", "txn-id": "incarnation"}
	for k, v := range extra {
		params[k] = v
	}
	f := sc.Faults
	for _, kv := range []struct {
		name, value string
	}{{"crash", "0.3"}, {"late-ms", "2500"}} {
		if err := f.Set(kv.name, kv.value); err != nil {
			panic(err)
		}
	}
	if faults == "no-late" {
		if err := f.Set("late", "0"); err != nil {
			panic(err)
		}
	}
	return scenarios.Settings{Semantics: sim.Transactional, Ops: 6, Faults: f, Params: params}
}

// TestHangingTransactionHoldsReadersBack: the hang is shown, not told.
//
//   - seed 5: the processor aborts, dies at after-abort and comes back
//     under a new transactional id; its late write lands OPEN under the
//     old producer id. The trace writes last-stable-offset = STUCK, the
//     run finishes with no-hanging-txn violated and operations lost to
//     the reader, and with a liveness phase it does not settle — the
//     liveness invariant is what it waits for;
//   - the same seed with verify=on: the late write is refused (48),
//     every operation is read, and the run settles;
//   - a crash inside a transaction (no late write) with txn-timeout on:
//     STUCK, then STABLE once the timeout aborts it, and every operation
//     read once; with txn-timeout=0 the dead incarnation's transaction
//     hangs and the reader never gets past it.
func TestHangingTransactionHoldsReadersBack(t *testing.T) {
	sc, err := scenarios.Lookup("kafka-hanging-transaction")
	if err != nil {
		t.Fatal(err)
	}
	lso := func(r runs.Run) (stuck, stable int) {
		for _, e := range r.Trace.Events {
			if e.Kind == sim.EvStorePut && r.Config.Topology.Nodes[e.Node].Tables[e.Label].Name == "last-stable-offset" {
				switch e.Rec.State {
				case 2:
					stuck++
				case 1:
					stable++
				}
			}
		}
		return
	}
	run := func(set scenarios.Settings, seed uint64) runs.Run {
		t.Helper()
		r, err := runs.Execute(sc, set, sim.NewRandom(seed), runs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	hanging := func(r runs.Run) string {
		for _, inv := range r.Outcome.Invariants {
			if inv.Name == "no-hanging-txn" {
				return inv.Violation
			}
		}
		t.Fatal("no-hanging-txn not judged")
		return ""
	}

	set := hangRow(sc, "", nil)
	set.FaultsUntil, set.Settle = 5000, 30000
	r := run(set, 5)
	if stuck, _ := lso(r); stuck == 0 || hanging(r) == "" || r.Outcome.Count(sim.Lost) == 0 {
		t.Errorf("seed 5: %d STUCK rows, no-hanging-txn %q, %d ops lost: want a hang that holds records back", stuck, hanging(r), r.Outcome.Count(sim.Lost))
	}
	if r.Liveness == nil || r.Liveness.Settled || len(r.Liveness.Unmet) != 1 || r.Liveness.Unmet[0].Name != "no-hanging-txn" {
		t.Errorf("seed 5 with a liveness phase: %+v, want not settled, waiting on no-hanging-txn", r.Liveness)
	}

	set.Params["verify"] = "on"
	r = run(set, 5)
	refused := false
	for _, e := range r.Trace.Events {
		refused = refused || (e.Kind == sim.EvSend && e.Msg.Kind == kafka.MsgTxnVerified && e.Msg.Status == 48)
	}
	if !refused || hanging(r) != "" || r.Outcome.Count(sim.Lost) != 0 || r.Liveness == nil || !r.Liveness.Settled {
		t.Errorf("seed 5 verify=on: refused=%v, no-hanging-txn %q, %d lost, liveness %+v: want the late write refused and the run settled", refused, hanging(r), r.Outcome.Count(sim.Lost), r.Liveness)
	}

	r = run(hangRow(sc, "no-late", nil), 1)
	if stuck, stable := lso(r); stuck == 0 || stable == 0 || hanging(r) != "" || r.Outcome.MaxEffects() != 1 || r.Outcome.Count(sim.Lost) != 0 {
		t.Errorf("seed 1, a crash in a transaction, txn-timeout 2s: %d STUCK, %d STABLE, no-hanging-txn %q: want stuck, then released, every op once", stuck, stable, hanging(r))
	}
	hung := 0
	for seed := uint64(1); seed <= 20; seed++ {
		if r := run(hangRow(sc, "no-late", map[string]string{"txn-timeout": "0"}), seed); hanging(r) != "" {
			hung++
		}
	}
	if hung == 0 {
		t.Error("txn-timeout=0, a crash in a transaction: no run of seeds 1..20 hangs")
	}
}
