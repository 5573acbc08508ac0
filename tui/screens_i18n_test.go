package tui

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/oncesim/once/internal/golden"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

var rewriteScreens = flag.Bool("rewrite", false, "rewrite the golden screens under testdata/")

// TestScreensGolden pins whole screens in Romanian and Russian: the
// headline of double-billing at 80×24 (lanes) and at 100×40 (lanes and the
// timeline, whose lines say each event in the language), and a run that
// breaks an invariant, whose own sentence (keyed-charges) is translated
// too. Refresh with `go test ./tui/ -run TestScreensGolden
// -rewrite` and read the diff.
func TestScreensGolden(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	for _, l := range lang.Translated() {
		lang.Set(l)
		for _, c := range []struct {
			name, scenario string
			opts           Options
			w, h           int
		}{
			{"double-billing-80x24", "double-billing", Options{Start: lookup(t, "double-billing"), Seed: 1, Headline: true}, 80, 24},
			{"double-billing-100x40", "double-billing", Options{Start: lookup(t, "double-billing"), Seed: 1, Headline: true}, 100, 40},
			{"missing-key-400-100x40", "missing-key-400", Options{Start: lookup(t, "missing-key-400"), Semantics: sim.AtLeastOnce, Seed: 2, Ops: 3}, 100, 40},
		} {
			got := screenOf(sized(t, New(c.opts), c.w, c.h))
			file := filepath.Join("testdata", "screen-"+c.name+"."+string(l)+".txt")
			if golden.Rewrite(*rewriteScreens, "screens", c.scenario) {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -rewrite to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s in %s differs from %s%s:\n%s", c.name, l, file, golden.Left(*rewriteScreens, "screens", c.scenario), got)
			}
		}
	}
}
