package runs

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

func lookup(t *testing.T, name string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestCommandSpellsEveryChange(t *testing.T) {
	sc := lookup(t, "double-billing")
	set := scenarios.Settings{Ops: 3, Faults: sc.Faults, Params: map[string]string{"ttl": "2s", "store": "memory"}, MaxEvents: 500}
	set.Faults.Probability[sim.FaultCrash] = 0.25
	got := Command(sc, sim.AtLeastOnce, 7, set)
	want := "once run double-billing --semantics alo --seed 7 --ops 3 --crash 0.25 --set store=memory --set ttl=2s --max-events 500"
	if got != want {
		t.Errorf("Command =\n %s\nwant\n %s", got, want)
	}
	file := *sc
	file.File = "my.yaml"
	if FromCatalog(&file) || Ref(&file) != "-f my.yaml" || Ref(sc) != "double-billing" {
		t.Errorf("a file scenario is named %q, the catalog's %q", Ref(&file), Ref(sc))
	}
}

// TestShrinkIsMinimal: run --check's shrinker leaves a plan from which no
// fault can be dropped.
func TestShrinkIsMinimal(t *testing.T) {
	sc := lookup(t, "double-billing")
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: sc.Ops, Faults: sc.Faults}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed < 50; seed++ {
		rec := sim.NewRecording(sim.NewRandom(seed))
		w, err := sim.NewWorld(cfg, rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.Run()
		if st, _ := w.JudgeAgainst(sim.ExactlyOne); st != sim.Violated {
			continue
		}
		jitter := func() sim.Chooser { return sim.NewJitter(seed) }
		cex, plan, err := Shrink(cfg, sim.ExactlyOne, rec.Faults, jitter)
		if err != nil {
			t.Fatal(err)
		}
		if len(plan) > len(rec.Faults) || cex.FoundFaults != len(rec.Faults) || len(cex.Faults) != len(plan) || cex.Cause == "" {
			t.Fatalf("seed %d: shrunk %d of %d faults, %+v", seed, len(plan), len(rec.Faults), cex)
		}
		for i := range plan {
			less := append(append([]sim.Fault{}, plan[:i]...), plan[i+1:]...)
			if v, _, _ := search.Violates(cfg, sim.ExactlyOne, less, jitter(), nil); v {
				t.Fatalf("seed %d: the plan still violates without fault %d: not minimal", seed, i)
			}
		}
		return
	}
	t.Fatal("no violating seed in 1..49")
}

func TestRenderEveryFormat(t *testing.T) {
	sc := lookup(t, "double-billing")
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: sc.Ops, Faults: sc.Faults}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	trace := &sim.Trace{}
	w, err := sim.NewWorld(cfg, sim.NewRandom(1), trace)
	if err != nil {
		t.Fatal(err)
	}
	rs := []Run{{Config: cfg, Outcome: w.Run(), Trace: trace, Replay: Command(sc, sim.AtLeastOnce, 1, set)}}
	for _, f := range Formats {
		var b bytes.Buffer
		if err := Render(&b, f, sc, 1, set, rs, nil); err != nil || b.Len() == 0 {
			t.Errorf("format %s: %d bytes, %v", f, b.Len(), err)
		}
	}
}

func TestExplainOfAFileRewritesTry(t *testing.T) {
	sc := *lookup(t, "double-billing")
	sc.File = "mine.yaml"
	d := Explain(&sc)
	for _, try := range d.Try {
		if strings.Contains(try, " double-billing") {
			t.Errorf("try line %q names the catalog scenario, not -f mine.yaml", try)
		}
	}
	if got := fileCommand("once run double-billing --seed 3", &sc); got != "once run -f mine.yaml --seed 3" {
		t.Errorf("fileCommand = %q", got)
	}
}
