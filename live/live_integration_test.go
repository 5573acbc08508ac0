//go:build integration

package live

import (
	"context"
	"testing"
	"time"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// liveTick is the real time of one virtual millisecond in the tests: the
// scenario's own pace, which a loaded machine still keeps.
const liveTick = time.Millisecond

// runBoth runs a scenario in the simulator and live, under one seed, and
// returns both outcomes.
func runBoth(t *testing.T, dsn, scenario string, sem sim.Semantics, seed uint64, params map[string]string) (simulated, real *sim.Outcome) {
	t.Helper()
	sc, err := scenarios.Lookup(scenario)
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults, Params: params}
	simulated, err = runs.Outcome(sc, set, sim.NewRandom(seed), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	real, err = Run(context.Background(), Options{Config: cfg, Chooser: sim.NewRandom(seed), DSN: dsn,
		Binary: onceBinary, Tick: liveTick, Deadline: time.Minute})
	if err != nil {
		t.Fatalf("%s %s seed %d live: %v", scenario, sem.Alias(), seed, err)
	}
	if !real.Finished() {
		t.Fatalf("%s %s seed %d live: did not finish: %s", scenario, sem.Alias(), seed, real.Why)
	}
	return simulated, real
}

func effects(o *sim.Outcome) []int32 {
	var out []int32
	for _, op := range o.Ops {
		out = append(out, op.Effects)
	}
	return out
}

// The lesson in the real database, under one plan (seed 3): at-least-once
// charges op-2, op-3 and op-5 more than once, as the simulator does; the
// idempotent service charges every payment once.
func testDoubleBilling(t *testing.T, dsn string) {
	simAlo, alo := runBoth(t, dsn, "double-billing", sim.AtLeastOnce, 3, nil)
	if alo.Count(sim.Duplicated) == 0 {
		t.Fatalf("at-least-once, seed 3: no double charge in the database: %v", effects(alo))
	}
	if got, want := alo.Count(sim.Duplicated), simAlo.Count(sim.Duplicated); got != want {
		t.Errorf("at-least-once, seed 3: %d duplicated live, %d simulated (live %v, simulated %v)", got, want, effects(alo), effects(simAlo))
	}
	_, idem := runBoth(t, dsn, "double-billing", sim.Idempotent, 3, nil)
	if idem.Count(sim.ExactlyOnce) != len(idem.Ops) || idem.Status != sim.Held {
		t.Fatalf("idempotent, seed 3: effects %v, %s", effects(idem), idem.Why)
	}
}

func TestIntegrationDoubleBillingSQLite(t *testing.T) { testDoubleBilling(t, "") }

func TestIntegrationDoubleBillingPostgres(t *testing.T) { testDoubleBilling(t, postgresDSN(t)) }

// Every buggy --set variant is a real code path that double-charges in
// the database, and its fix does not — the simulator's expectations, shown
// for real.
func testVariants(t *testing.T, dsn string) {
	for _, c := range []struct {
		scenario string
		params   map[string]string
		dup      bool
	}{
		{"mark-after-effect", nil, true},                                  // mark=after: a crash after the charge loses the key
		{"mark-after-effect", map[string]string{"mark": "before"}, false}, // PROCESSING first, recovery asks the gateway
		{"in-memory-dedup-restart", nil, true},                            // store=memory: the restart forgets the keys
		{"in-memory-dedup-restart", map[string]string{"store": "durable"}, false},
		{"new-key-per-retry", nil, true}, // key=per-attempt
		{"new-key-per-retry", map[string]string{"key": "per-operation"}, false},
		{"concurrent-same-key", nil, true}, // no lock: SELECT then INSERT, the preempt between them
		{"concurrent-same-key", map[string]string{"lock": "unique-insert"}, false},
		{"store-outage-fail-closed", nil, true}, // fail open: a retry during the outage charges again
		{"store-outage-fail-closed", map[string]string{"on-store-down": "fail-closed"}, false},
	} {
		simulated, real := runBoth(t, dsn, c.scenario, sim.Idempotent, 3, c.params)
		if got := real.Count(sim.Duplicated) > 0; got != c.dup {
			t.Errorf("%s %v seed 3: duplicated live %v, want %v (live %v, simulated %v)", c.scenario, c.params, got, c.dup, effects(real), effects(simulated))
		}
		if got := simulated.Count(sim.Duplicated) > 0; got != c.dup {
			t.Errorf("%s %v seed 3: the simulator disagrees with the test (simulated %v)", c.scenario, c.params, effects(simulated))
		}
	}
}

func TestIntegrationVariantsSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: eight live runs")
	}
	testVariants(t, "")
}

func TestIntegrationVariantsPostgres(t *testing.T) {
	dsn := postgresDSN(t)
	if testing.Short() {
		t.Skip("-short: eight live runs")
	}
	testVariants(t, dsn)
}

// A key reused with another body is refused with 422 and never charged.
func TestIntegrationKeyReuseIsRefused(t *testing.T) {
	_, real := runBoth(t, "", "key-reuse-different-payload", sim.Idempotent, 3, nil)
	got := effects(real)
	if got[0] != 1 || got[1] != 0 || got[2] != 0 {
		t.Fatalf("effects %v: want op-1 charged once, op-2 and op-3 refused", got)
	}
}
