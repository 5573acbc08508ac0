package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/oncesim/once/report"
)

// TestMatrixTextFitsWidth: the text matrix of the whole catalog fits in
// report.MatrixTextWidth columns (it was about 230 wide) and heads its
// self-test "as declared", not "held".
func TestMatrixTextFitsWidth(t *testing.T) {
	code, out, errOut := runOnce("matrix", "--seeds", "3")
	if code != 0 && code != 1 {
		t.Fatalf("matrix: exit %d: %s", code, errOut)
	}
	for i, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  ") { // a failure line below the table: prose
			continue
		}
		if n := utf8.RuneCountInString(line); n > report.MatrixTextWidth {
			t.Errorf("line %d is %d columns wide (at most %d): %q", i+1, n, report.MatrixTextWidth, line)
		}
	}
	if !strings.Contains(out, "as declared") || strings.Contains(out, "│ held") {
		t.Errorf("the self-test column is not headed %q:\n%s", "as declared", out[:min(len(out), 800)])
	}
}
