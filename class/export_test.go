package class

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
)

// TestRosterCSVKeepsFormulasOut: a student whose first question went
// unanswered has letters that start with "-", which a spreadsheet opening
// roster.csv would compute as a formula; the cell is quoted as text, and
// other cells are left as they are.
func TestRosterCSVKeepsFormulasOut(t *testing.T) {
	graded := []*lesson.Graded{
		{Student: "Ana", Right: 1, Answers: []lesson.GradedAnswer{{ID: "q1"}, {ID: "q2", Letter: "b", Right: true}}},
		{Student: "Boris", Right: 1, Answers: []lesson.GradedAnswer{{ID: "q1", Letter: "a", Right: true}, {ID: "q2"}}},
	}
	var b strings.Builder
	if err := WriteRosterCSV(&b, graded); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"student", "right", "asked", "answers"}, {"Ana", "1", "2", "'-B"}, {"Boris", "1", "2", "A-"}}
	if len(rows) != len(want) {
		t.Fatalf("rows = %q, want %q", rows, want)
	}
	for i := range want {
		if strings.Join(rows[i], ",") != strings.Join(want[i], ",") {
			t.Errorf("row %d = %q, want %q", i, rows[i], want[i])
		}
	}
	for _, s := range []string{"=1+1", "+1", "@SUM(A1)", "\tx", "\rx"} {
		if got := spreadsheetText(s); got != "'"+s {
			t.Errorf("spreadsheetText(%q) = %q, want it quoted", s, got)
		}
	}
}
