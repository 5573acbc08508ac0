package live

import (
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

func doubleBilling(t *testing.T, sem sim.Semantics, params map[string]string) *sim.Config {
	t.Helper()
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: 5, Faults: sc.Faults, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// A call of the user's service is named by its amount (a charge) or by its
// key (a lookup); made while the restart command runs, it is the
// recovery's: attempt 0.
func TestInferCallNamesLookupsAndRecovery(t *testing.T) {
	cfg := doubleBilling(t, sim.Idempotent, nil)
	dec := NewDecider(cfg.Topology, cfg.Network.(*network.Network), sim.NewRandom(1), nil)
	dec.sent.sent(3, 2)
	recovering := false
	infer := inferCall(dec, cfg.Ops, func() bool { return recovering }, nil)
	body := []byte(`{"amount": ` + strconv.FormatInt(roles.Payload(3), 10) + `}`)
	for _, c := range []struct {
		path        string
		body        []byte
		recovering  bool
		op, attempt int32
		ok          bool
	}{
		{PathLookup + "?key=run-0a1b2c3d-pay-op-3", nil, false, 3, 2, true},
		{PathLookup + "?key=run-0a1b2c3d-pay-op-3", nil, true, 3, 0, true},
		{PathLookup + "?key=run-0a1b2c3d-pay-op-3-attempt-2", nil, false, 3, 2, true},
		{PathCharges, body, false, 3, 2, true},
		{PathCharges, body, true, 3, 0, true},
		{PathLookup + "?key=someone-else", nil, false, 0, 0, false},
		{PathLookup + "?key=run-x-pay-op-9", nil, false, 0, 0, false}, // no operation 9 in 5
	} {
		recovering = c.recovering
		op, attempt, ok := infer(httptest.NewRequest("GET", c.path, nil), c.body)
		if op != c.op || attempt != c.attempt || ok != c.ok {
			t.Errorf("%s (recovering %v): op %d attempt %d ok %v, want %d %d %v", c.path, c.recovering, op, attempt, ok, c.op, c.attempt, c.ok)
		}
	}
}

// The crash points asked of the user's service are the scenario's
// payment-service's: after-charge always; after-lock and after-store only
// where it keeps keys, after-lock only where it writes the key first.
func TestRestartHostAsksTheServicesPoints(t *testing.T) {
	for _, c := range []struct {
		sem         sim.Semantics
		params      map[string]string
		lock, store bool
	}{
		{sim.AtLeastOnce, nil, false, false},
		{sim.AtMostOnce, nil, false, false},
		{sim.Idempotent, nil, true, true},
		{sim.Idempotent, map[string]string{"mark": "after"}, false, true},
	} {
		cfg := doubleBilling(t, c.sem, c.params)
		p, err := findParts(cfg)
		if err != nil {
			t.Fatal(err)
		}
		h, err := newRestartHost("http://127.0.0.1:1", "true", cfg, p, 1, nil, nil, nil, func() {})
		if err != nil {
			t.Fatal(err)
		}
		if h.lock != c.lock || h.store != c.store {
			t.Errorf("%s %v: after-lock %v, after-store %v; want %v, %v", c.sem, c.params, h.lock, h.store, c.lock, c.store)
		}
	}
}
