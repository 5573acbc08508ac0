package report

import (
	"strings"
	"testing"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// In English, DescribeHere is the trace's own line byte for byte (the
// TUI's English timeline did not change); in Romanian and Russian every
// event of a run is said with its words filled, never an id or a hole,
// and the message's values (transaction ids, statuses) stay in the line.
func TestDescribeHere(t *testing.T) {
	defer lang.Set(lang.Current())
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 3, Faults: sc.Faults}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	tr := &sim.Trace{}
	// report sits below the run service (runs imports it): the test
	// builds its world itself.
	w, err := sim.NewWorld(cfg, sim.NewRandom(36), tr)
	if err != nil {
		t.Fatal(err)
	}
	w.Run()
	topo := cfg.Topology
	for _, l := range lang.Languages() {
		lang.Set(l)
		for i := range tr.Events {
			e := &tr.Events[i]
			got := DescribeHere(topo, e)
			if l == lang.English {
				if want := Describe(topo, e); got != want {
					t.Errorf("en: %q, want the trace's %q", got, want)
				}
				continue
			}
			if strings.Contains(got, "event.") || strings.Contains(got, "<no value>") {
				t.Errorf("%s: %q has a missing message or an unfilled value", l, got)
			}
			if e.Kind == sim.EvSend && e.Msg.Status != 0 && !strings.Contains(got, "status=") {
				t.Errorf("%s: %q lost the message's status", l, got)
			}
			if strings.Contains(got, " send ") || strings.Contains(got, " deliver ") {
				t.Errorf("%s: %q is still in English", l, got)
			}
		}
	}
}
