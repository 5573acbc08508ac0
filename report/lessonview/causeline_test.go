package lessonview

import (
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report"
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
		for i, q := range causeQuestions(t, c, 0) { // the teaser: its sheet asks for the cause of the double charge
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

// causeQuestions are the cause questions of step i's sheet in c, by their
// number on the sheet (0-based).
func causeQuestions(t *testing.T, c *lesson.Course, i int) map[int]QuestionView {
	t.Helper()
	v, err := Build(c, i)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]QuestionView{}
	for j, q := range v.Questions {
		if q.Ask == lesson.AskCause {
			out[j] = q
		}
	}
	return out
}

// collapse is s with its runs of spaces made one: a choice drops the
// trace's column padding.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestCauseQuestionsPrintTheirTrace: a cause question quotes lines of one
// semantics' trace, so it prints the command that shows that trace (the
// step's own command prints tables only), and every choice it offers is
// a line that command prints — over the sheets of several students.
func TestCauseQuestionsPrintTheirTrace(t *testing.T) {
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, student := range []string{"", "Ana Popescu", "Борис"} {
		course := c
		if student != "" {
			if course, err = c.ForStudent(student); err != nil {
				t.Fatal(err)
			}
		}
		for step := range course.Steps {
			for i, q := range causeQuestions(t, course, step) {
				asked++
				cmds := EvidenceCommands(q)
				if len(cmds) != 1 || !strings.HasSuffix(cmds[0], " --format trace") || !strings.Contains(cmds[0], " --semantics "+q.Semantics.Alias()+" ") {
					t.Fatalf("step %d question %d: evidence commands %q, want one trace of %s", step+1, i+1, cmds, q.Semantics)
				}
				r := runCommand(t, cmds[0], q.Semantics)
				printed := map[string]bool{}
				for _, e := range r.trace.Events {
					printed[collapse(report.TimeWords(e.At)+"  "+report.Describe(r.topo, &e))] = true
				}
				for k, ch := range q.Choices {
					if !printed[collapse(ch)] {
						t.Errorf("step %d question %d: choice %c) %q is no line of `%s`", step+1, i+1, 'a'+k, ch, cmds[0])
					}
				}
			}
		}
	}
	if asked == 0 {
		t.Fatal("no cause question on any sheet: the test checks nothing")
	}
}
