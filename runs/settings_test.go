package runs

import (
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

func TestParseSemantics(t *testing.T) {
	sc := lookup(t, "double-billing")
	if got, err := ParseSemantics("alo,idem", sc); err != nil || len(got) != 2 || got[0] != sim.AtLeastOnce {
		t.Errorf("alo,idem = %v, %v", got, err)
	}
	if got, _ := ParseSemantics("all", sc); len(got) != len(sc.Semantics) {
		t.Errorf("all = %v", got)
	}
	for spec, want := range map[string]string{"alo,alo": "given twice", "txn": "supports", "nope": "--semantics", "all,alo": "--semantics all,alo: all stands alone", "idem, all": "all stands alone"} {
		if _, err := ParseSemantics(spec, sc); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSemantics(%q) = %v, want %q", spec, err, want)
		}
	}
}

// TestOneSemantics: explore said "unknown semantics "all"" for all or a
// list, and "scenario … does not support semantics transactional" (no
// flag) where run and sweep say "--semantics txn: scenario … supports
// amo, alo, idem": one wording for every command that takes one.
func TestOneSemantics(t *testing.T) {
	sc := lookup(t, "double-billing")
	if sem, err := OneSemantics("alo", sc, "explore"); err != nil || sem != sim.AtLeastOnce {
		t.Errorf("alo = %v, %v", sem, err)
	}
	for spec, want := range map[string]string{
		"all":      "--semantics all: explore takes one semantics",
		"alo,idem": "--semantics alo,idem: explore takes one semantics",
		"txn":      "--semantics txn: scenario double-billing supports amo, alo, idem",
		"nope":     `--semantics: unknown semantics "nope"`,
	} {
		if _, err := OneSemantics(spec, sc, "explore"); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("OneSemantics(%q) = %v, want %q", spec, err, want)
		}
	}
}

// TestOverridesApplyOnlyWhatWasGiven: a value applies only when its flag
// was set; a given budget of 0 or a probability out of [0,1] is refused.
func TestOverridesApplyOnlyWhatWasGiven(t *testing.T) {
	sc := lookup(t, "double-billing")
	given := map[string]bool{}
	o := &Overrides{Ops: 7, MaxEvents: 0, Sets: []string{"ttl=2s"}, Changed: func(n string) bool { return given[n] }}
	o.Faults[sim.FaultCrash] = 0.5
	set, err := o.Settings(sc)
	if err != nil || set.Ops != sc.Ops || set.Faults != sc.Faults || set.Params["ttl"] != "2s" {
		t.Fatalf("nothing given: %+v, %v", set, err)
	}
	given["ops"], given["crash"] = true, true
	if set, err = o.Settings(sc); err != nil || set.Ops != 7 || set.Faults.Probability[sim.FaultCrash] != 0.5 {
		t.Errorf("ops and crash given: %+v, %v", set, err)
	}
	given["max-events"] = true
	if _, err := o.Settings(sc); err == nil || !strings.Contains(err.Error(), "--max-events 0") {
		t.Errorf("--max-events 0: %v", err)
	}
	given["max-events"] = false
	o.Faults[sim.FaultCrash] = 1.5
	if _, err := o.Settings(sc); err == nil || !strings.Contains(err.Error(), "--crash 1.5") {
		t.Errorf("--crash 1.5: %v", err)
	}
}
