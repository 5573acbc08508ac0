package lab_test

import (
	"os"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// A lab session keeps the fault kinds of its scenario: a scenario loaded
// with a registry of its own (a kind a build or a test added) plays its
// nodes under that registry, not the built-in one. The session's topology
// once dropped it, copying the topology's fields one by one.
func TestSessionKeepsTheScenariosKinds(t *testing.T) {
	cat := scenarios.RoleCatalog().Clone()
	stall := cat.Engine().AddLinkFault(sim.LinkFaultSpec{Name: "xl-stall", Past: "stalled", Links: sim.AllLinks, Hold: 200})
	data, err := os.ReadFile("../scenarios/catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.LoadWith(cat, "double-billing.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	l := &lab.Lab{Scenario: sc, Settings: scenarios.Settings{Ops: sc.Ops, Faults: sc.Faults}, Seed: 1,
		Commands: map[string][]string{"service": {"true"}}}
	if err := l.Validate(); err != nil {
		t.Fatal(err)
	}
	sess, err := l.NewSession(sim.Idempotent)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	got := sess.Config().Topology.Registry()
	if got != cat.Engine() {
		t.Fatal("the session's topology names the built-in kinds, not the scenario's")
	}
	if spec := got.FaultKind(stall); spec.Name != "xl-stall" {
		t.Errorf("the session's kinds name the added fault %q, want xl-stall", spec.Name)
	}
}
