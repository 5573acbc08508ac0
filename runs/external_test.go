package runs_test

import (
	"reflect"
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestExternalOutcomeJudgesAsTheEngine: a checker and invariants fed a
// run's trace, as live and the broker drivers feed theirs, judge it
// through sim.Checker.Outcome exactly as the engine judged it — every
// operation's counts and outcome, the verdict, its reason, the promise
// and the invariants — over every scenario and semantics of the catalog.
func TestExternalOutcomeJudgesAsTheEngine(t *testing.T) {
	compared := 0
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			set := scenarios.Settings{Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{}, Semantics: sem}
			for seed := uint64(1); seed <= 2; seed++ {
				r, err := runs.Execute(sc, set, sim.NewRandom(seed), runs.Options{})
				if err != nil {
					t.Fatal(err)
				}
				cfg, want := r.Config, r.Outcome
				c := sim.NewChecker(cfg.Observe, cfg.Ops)
				var invs []sim.Invariant
				if cfg.Invariants != nil {
					invs = cfg.Invariants()
				}
				for i := range r.Trace.Events {
					c.Record(&r.Trace.Events[i])
					for _, inv := range invs {
						inv.Record(&r.Trace.Events[i])
					}
				}
				finished := want.End == sim.Quiescent
				got := c.Outcome(sim.ExternalRun{Semantics: sem, Finished: finished, Events: want.Events, EndTime: want.EndTime, Digest: want.Digest, Invariants: invs})
				if !reflect.DeepEqual(got.Ops, want.Ops) || got.Status != want.Status || !reflect.DeepEqual(got.Reason, want.Reason) || got.Why != want.Why ||
					got.Guarantee != want.Guarantee || !reflect.DeepEqual(got.Invariants, want.Invariants) || got.Faults != want.Faults {
					t.Errorf("%s %s seed %d: judged from its trace\n%+v\nby the engine\n%+v", sc.Name, sem.Alias(), seed, got, want)
				}
				compared++
			}
		}
	}
	if compared == 0 {
		t.Fatal("no run compared")
	}
}
