package main

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/oncesim/once/scenarios"
)

// maxDiagramHeight is the tallest default diagram still read on a screen
// (the transactional eos-without-sink-cooperation was 22046 px).
const maxDiagramHeight = 6000

// TestEveryCanonicalSVGIsReadable: the default run's SVG of every catalog
// scenario stays under maxDiagramHeight, a long trace cut to its focus.
func TestEveryCanonicalSVGIsReadable(t *testing.T) {
	size := regexp.MustCompile(`<svg xmlns="[^"]*" width="([0-9.]+)" height="([0-9.]+)"`)
	for _, sc := range scenarios.All() {
		code, out, errOut := runOnce("run", sc.Name, "--format", "svg")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", sc.Name, code, errOut)
		}
		m := size.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no root size", sc.Name)
		}
		if h, _ := strconv.ParseFloat(m[2], 64); h > maxDiagramHeight {
			t.Errorf("%s: %s px tall, want at most %d", sc.Name, m[2], maxDiagramHeight)
		}
	}
}
