package report

import (
	"testing"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// TestFaultKindLabelsTranslated is CONTRIBUTING's step F3 for the views:
// every event kind that records a fault has its own label in Romanian and
// Russian. A kind the locale files do not name falls back to its English
// name from the event table, which no other test notices: a registered
// kind needs its word under [kind] in report/lang/locales/events.*.toml.
func TestFaultKindLabelsTranslated(t *testing.T) {
	defer lang.Set(lang.Current())
	checked := 0
	for _, l := range lang.Translated() {
		lang.Set(l)
		for e := sim.EventKind(1); e < sim.NumEventKinds; e++ {
			if e.Spec().Fault == 0 {
				continue
			}
			checked++
			if got := KindLabel(e); got == e.String() {
				t.Errorf("F3: event kind %s has no %s label (it reads %q): add %s = \"<its word>\" under [kind] in report/lang/locales/events.%s.toml", e, l, got, e, l)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no event kind records a fault: the walk is not looking at the event table")
	}
}
