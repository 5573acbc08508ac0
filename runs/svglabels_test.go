package runs

import (
	"bytes"
	"testing"

	"github.com/oncesim/once/internal/svgtext"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

// TestSVGLabelsReadable draws what `once run NAME --format svg` draws for
// every scenario of the catalog on its default seed (1), every semantics
// side by side, in English, Romanian and Russian, and measures every label
// as a box (svgtext.Check: the width from the font size and the
// characters, the text's anchor and rotation as drawn): no two labels of
// one diagram overlap, and none runs out of its viewBox.
func TestSVGLabelsReadable(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	for _, l := range []lang.Lang{lang.English, lang.Romanian, lang.Russian} {
		lang.Set(l)
		for _, sc := range scenarios.All() {
			var rs []Run
			for _, sem := range sc.Semantics {
				r, err := Execute(sc, scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults}, Chooser(1, false), Options{})
				if err != nil {
					t.Fatal(err)
				}
				rs = append(rs, r)
			}
			var b bytes.Buffer
			if err := WriteSVG(&b, sc, 1, rs); err != nil {
				t.Fatal(err)
			}
			problems, err := svgtext.Check(b.Bytes())
			if err != nil {
				t.Fatalf("%s %s: %v", l, sc.Name, err)
			}
			for _, p := range problems {
				t.Errorf("%s once run %s --format svg: %s", l, sc.Name, p)
			}
		}
	}
}
