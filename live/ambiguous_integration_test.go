//go:build integration

package live

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// runAmbiguous runs ambiguous-external-outcome in the simulator and live
// under one seed, with the variant's parameters and faults (and ops, if
// not 0), and returns both outcomes.
func runAmbiguous(t *testing.T, dsn string, seed uint64, params map[string]string, ops int) (simulated, real *sim.Outcome) {
	t.Helper()
	sc, err := scenarios.Lookup("ambiguous-external-outcome")
	if err != nil {
		t.Fatal(err)
	}
	v := Variant{"ambiguous-external-outcome", sim.Idempotent, params}
	set, err := v.settings(sc)
	if err != nil {
		t.Fatal(err)
	}
	if ops > 0 {
		set.Ops = ops
	}
	if simulated, err = runs.Outcome(sc, set, sim.NewRandom(seed), nil); err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	prof := set.Faults
	real, err = Run(context.Background(), Options{Config: cfg, Faults: &prof, Chooser: sim.NewRandom(seed), DSN: dsn,
		Binary: onceBinary, Tick: liveTick, Deadline: time.Minute})
	if err != nil {
		t.Fatalf("%s seed %d live: %v", v, seed, err)
	}
	if !real.Finished() {
		t.Fatalf("%s seed %d live: did not finish: %s", v, seed, real.Why)
	}
	return simulated, real
}

func metric(o *sim.Outcome, name string) float64 {
	for _, m := range o.Metrics {
		if m.Name == name {
			return m.Value
		}
	}
	return -1
}

// ambiguous-external-outcome live, as the simulator runs it. Reconciling
// by the same key charges every payment once, however its call timed
// out; retrying under a new key charges twice the payments whose answer
// was lost (seeds 2 and 3); a charge that is only late lands after the
// lookup said "not found" and charges twice, unless the provider dedups
// by key. Each operation's effects, the verdict and the UNKNOWN backlog
// are the simulator's.
func testAmbiguousExternalOutcome(t *testing.T, dsn string) {
	doubled := 0
	for _, c := range []struct {
		params map[string]string
		seeds  []uint64
	}{
		{map[string]string{"on-timeout": "reconcile"}, []uint64{1, 2, 3}},
		{map[string]string{"on-timeout": "retry-new-key"}, []uint64{2, 3}},
		{map[string]string{"provider": "lookup", "--slow": "0.1"}, []uint64{1}},
		{map[string]string{"provider": "idempotent", "--slow": "0.1"}, []uint64{1}},
	} {
		for _, seed := range c.seeds {
			simulated, real := runAmbiguous(t, dsn, seed, c.params, 0)
			v := Variant{"ambiguous-external-outcome", sim.Idempotent, c.params}
			if !slices.Equal(effects(real), effects(simulated)) || real.Status != simulated.Status {
				t.Errorf("%s seed %d: live charges %v (%s), the simulator %v (%s)", v, seed, effects(real), real.Status, effects(simulated), simulated.Status)
			}
			if got, want := metric(real, "max-unknown-backlog"), metric(simulated, "max-unknown-backlog"); got != want {
				t.Errorf("%s seed %d: max-unknown-backlog live %v, simulated %v", v, seed, got, want)
			}
			if c.params["on-timeout"] == "reconcile" || c.params["provider"] == "idempotent" {
				if real.Count(sim.ExactlyOnce) != len(real.Ops) {
					t.Errorf("%s seed %d: %v, want every payment charged once", v, seed, effects(real))
				}
			} else {
				doubled += real.Count(sim.Duplicated)
			}
		}
	}
	if doubled == 0 {
		t.Error("retry-new-key and the late charge never charged twice: the bug is not live")
	}
}

func TestIntegrationAmbiguousExternalOutcomeSQLite(t *testing.T) { testAmbiguousExternalOutcome(t, "") }

func TestIntegrationAmbiguousExternalOutcomePostgres(t *testing.T) {
	testAmbiguousExternalOutcome(t, postgresDSN(t))
}

// A reconciler slower than unknown outcomes arrive (r = 2.5/s, 80
// payments 10 ms apart, u ≈ 20/s): the UNKNOWN backlog, read back from
// the database, passes 12 — unknown-backlog-bounded is violated live as in
// the simulator, with the same backlog and arrival rate — while every
// payment is still charged once.
func TestIntegrationAmbiguousBacklogUnbounded(t *testing.T) {
	simulated, real := runAmbiguous(t, "", 2, map[string]string{"interval": "10ms", "reconcile-every": "400ms"}, 80)
	held := func(o *sim.Outcome) string {
		for _, inv := range o.Invariants {
			if inv.Name == "unknown-backlog-bounded" {
				return inv.Violation
			}
		}
		return "missing"
	}
	if held(simulated) == "" || held(real) == "" || real.Status != sim.Violated {
		t.Fatalf("unknown-backlog-bounded: live %q (%s), simulated %q; want both violated", held(real), real.Status, held(simulated))
	}
	if real.Count(sim.ExactlyOnce) != len(real.Ops) {
		t.Errorf("effects %v, want every payment charged once", effects(real))
	}
	for _, m := range []string{"max-unknown-backlog", "unknown-arrival-rate"} {
		if got, want := metric(real, m), metric(simulated, m); got < 0.8*want || got > 1.2*want {
			t.Errorf("%s: live %v, simulated %v", m, got, want)
		}
	}
}
