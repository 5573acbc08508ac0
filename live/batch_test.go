package live

import (
	"errors"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// planned is one run of scenario name with fault flags set.
func planned(t *testing.T, name string, faults map[string]string) (*scenarios.Scenario, Planned) {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sc.Semantics[len(sc.Semantics)-1], Ops: sc.Ops, Faults: sc.Faults}
	for k, v := range faults {
		if err := set.Faults.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	return sc, Planned{Settings: set, Config: cfg, Chooser: sim.NewRandom(1)}
}

// Every run is checked before any starts; the refusal names the scenario.
func TestCheckAllRefusesBeforeAnythingStarts(t *testing.T) {
	sc, ok := planned(t, "double-billing", nil)
	if err := CheckAll(sc, []Planned{ok}, false, false); err != nil {
		t.Fatalf("refused a run live can make: %v", err)
	}
	_, bad := planned(t, "double-billing", map[string]string{"preempt": "0.3"})
	err := CheckAll(sc, []Planned{ok, bad}, false, false)
	if err == nil || !errors.Is(err, ErrNotLive) || !strings.HasPrefix(err.Error(), "scenario double-billing: ") {
		t.Errorf("CheckAll = %v, want a refusal of --preempt naming the scenario", err)
	}
	_, crash := planned(t, "double-billing", map[string]string{"crash": "0.3"})
	if err := CheckAll(sc, []Planned{crash}, false, false); err != nil {
		t.Errorf("once's own service crashes: %v", err)
	}
	if err := CheckAll(sc, []Planned{crash}, true, false); err == nil || !strings.Contains(err.Error(), "--restart-cmd") {
		t.Errorf("a target's service crashed with no --restart-cmd: %v, want a refusal naming --restart-cmd", err)
	}
	if err := CheckAll(sc, []Planned{crash}, true, true); err != nil {
		t.Errorf("a target's service crashed by --restart-cmd: %v", err)
	}
	if err := CheckAll(sc, []Planned{ok}, true, true); err == nil || !strings.Contains(err.Error(), "--crash is 0") {
		t.Errorf("--restart-cmd with no crash to run it at: %v, want a refusal", err)
	}
}
