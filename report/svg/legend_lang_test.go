package svg

import (
	"testing"

	"github.com/oncesim/once/report/lang"
)

// Every legend entry has its Romanian and Russian words: a diagram in
// another language never keeps an English legend line.
func TestLegendTranslated(t *testing.T) {
	for _, it := range svgLegendTexts {
		if it[1] == "" {
			continue
		}
		id := "legend." + it[1]
		if got := lang.English.T(id); got != it[1] {
			t.Errorf("English %s = %q, want the entry itself", id, got)
		}
		for _, l := range lang.Translated() {
			if got := l.T(id); got == id || got == it[1] && it[1] != "timer" {
				t.Errorf("%s: legend entry %q is not translated (%q)", l, it[1], got)
			}
		}
	}
}
