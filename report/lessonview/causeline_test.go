package lessonview

import (
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

// A cause question asks "which line of the trace" is the fault, so its
// choices are lines of the trace as the reveal prints it, in every
// language: the right one is found, word for word, among the lines the
// reveal shows (a choice in the TUI's event words — "PIERDUT (pe rețea)
// pay op-1 #1 → service" — was no line of the trace beside it,
// "PIERDUT (pe rețea) → service pay op-1 #1").
func TestCauseChoicesAreTraceLines(t *testing.T) {
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	defer lang.Set(lang.Current())
	asked := 0
	for _, l := range lang.Languages() {
		lang.Set(l)
		v, err := Build(c, 0) // the teaser: its sheet asks for the cause of the double charge
		if err != nil {
			t.Fatal(err)
		}
		for i, q := range v.Questions {
			if q.Ask != lesson.AskCause {
				continue
			}
			asked++
			want := collapse(q.Choices[q.Answer])
			found := false
			for _, line := range strings.Split(q.Diagram, "\n") {
				found = found || collapse(line) == want
			}
			if !found {
				t.Errorf("%s: question %d: the right choice %q is no line of the trace shown with it:\n%s", l, i+1, q.Choices[q.Answer], q.Diagram)
			}
		}
	}
	if asked < len(lang.Languages()) {
		t.Fatalf("%d cause questions in the first step over %d languages: the sheet no longer asks one there; pick a step that does", asked, len(lang.Languages()))
	}
}

// collapse is s with its runs of spaces made one: a choice drops the
// trace's column padding.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
