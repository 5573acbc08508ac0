package report

import (
	"strings"
	"testing"

	"github.com/oncesim/once/report/lang"
)

// TestMatrixNoBareTickBesideAFailure: a held expectation of a row that
// declares a failure (dup, lost, violation, never-completes) says
// "≥1 dup: fails ✓" in the text matrix and "fails" in the Markdown one
// (under "as declared"); a row that holds says "holds" in the Markdown (a plain ✓ in the
// text, which fits 120 columns), in en, ro and ru: never a bare ✓ or
// "held" beside a failure row.
func TestMatrixNoBareTickBesideAFailure(t *testing.T) {
	defer lang.Set(lang.Current())
	doc := MatrixDoc{Seeds: 10, Cells: []MatrixCell{
		{Scenario: "s", Row: "amo", Expected: "≤1 lost", Expectation: "held"},
		{Scenario: "s", Row: "alo", Expected: "≥1 dup", Expectation: "held"},
		{Scenario: "s", Row: "idem", Expected: "=1", Expectation: "held"},
		{Scenario: "s", Row: "idem on-expired=fail-open", Expected: "violation", Expectation: "held"},
		{Scenario: "s", Row: "idem lease=none", Expected: "never-completes", Expectation: "held"},
		{Scenario: "s", Row: "txn", Expected: "invariants =1", Expectation: "held"},
	}}
	failure := []bool{true, true, false, true, true, false}
	for _, l := range []lang.Lang{lang.English, lang.Romanian, lang.Russian} {
		lang.Set(l)
		bug, fix := lang.T("matrix.fails_as_bug"), lang.T("matrix.holds_as_fix")
		for _, md := range []bool{false, true} {
			var b strings.Builder
			write := WriteMatrixText
			if md {
				write = WriteMatrixMarkdown
			}
			if err := write(&b, doc); err != nil {
				t.Fatal(err)
			}
			for i, c := range doc.Cells {
				var line string
				for _, ln := range strings.Split(b.String(), "\n") {
					if strings.Contains(ln, " "+c.Row+" ") || strings.Contains(ln, "`"+c.Row+"`") {
						line = ln
						break
					}
				}
				want, not := fix, bug
				if failure[i] {
					want, not = bug, fix
				} else if !md {
					want = MarkGood
				}
				if line == "" || !strings.Contains(line, want) || strings.Contains(line, not) {
					t.Errorf("%s md=%v: row %s (%s): %q, want %q", l, md, c.Row, c.Expected, line, want)
				}
			}
		}
	}
}
