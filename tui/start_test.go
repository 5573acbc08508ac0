package tui

import (
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// A scenario from a file hides its catalog namesake from the list;
// only a changed fault profile replaces the scenario's.
func TestOpenStartsOnTheScenarioGiven(t *testing.T) {
	cat, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	file := *cat
	var o Options
	o.Open(&file, scenarios.Settings{Faults: file.Faults})
	if o.Start != &file || o.Faults != nil || o.Params != nil {
		t.Errorf("Open with the scenario's own settings: %+v", o)
	}
	for _, s := range o.Scenarios {
		if s.Name == "double-billing" {
			t.Error("the catalog's double-billing is listed beside the file's")
		}
	}
	if len(o.Scenarios) != len(scenarios.All())-1 {
		t.Errorf("a list of %d, want the catalog but one", len(o.Scenarios))
	}
	set := scenarios.Settings{Faults: cat.Faults, Params: map[string]string{"store": "memory"}}
	set.Faults.Probability[sim.FaultCrash] = 0.5
	o.Open(cat, set)
	if len(o.Scenarios) != len(scenarios.All()) {
		t.Errorf("a catalog scenario: a list of %d, want the catalog", len(o.Scenarios))
	}
	if o.Faults == nil || o.Faults.Probability[sim.FaultCrash] != 0.5 || o.Params["store"] != "memory" {
		t.Errorf("Open with --crash and --set: faults %v params %v", o.Faults, o.Params)
	}
}
