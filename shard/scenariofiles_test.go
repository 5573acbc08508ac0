package shard

import (
	"testing"

	"github.com/oncesim/once/scenarios"
)

// TestScenarioFilesCarryFilesOnly: a shard names a built-in scenario and
// carries the bytes of one loaded from a file — even a file that is the
// catalog's own text under the catalog's name, which may since have been
// edited on disk.
func TestScenarioFilesCarryFilesOnly(t *testing.T) {
	builtIn, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	if !builtIn.BuiltIn() {
		t.Fatal("the catalog's double-billing does not say it is built in")
	}
	fromFile, err := scenarios.Load("mine/double-billing.yaml", builtIn.Source)
	if err != nil {
		t.Fatal(err)
	}
	if fromFile.BuiltIn() {
		t.Fatal("a scenario loaded from a file says it is built in")
	}
	got := ScenarioFiles(builtIn, fromFile, builtIn.Shown())
	if len(got) != 1 || got[0].Name != "mine/double-billing.yaml" || got[0].Text != string(builtIn.Source) {
		t.Fatalf("ScenarioFiles = %+v, want only the file's name and bytes", got)
	}
}
