package lessonview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
)

// A step's reveal shows each trace once: a question whose trace is an
// earlier question's points at it instead of printing it again.
func TestOneRevealPerTrace(t *testing.T) {
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	pointed := 0
	for i := range c.Steps {
		for n := range 6 {
			s, err := c.StepForStudent(i, fmt.Sprintf("student-%d", n))
			if err != nil {
				t.Fatal(err)
			}
			one := &lesson.Course{Steps: []lesson.Step{*s}, TrackName: c.TrackName}
			v, err := Build(one, 0)
			if err != nil {
				t.Fatal(err)
			}
			for j, q := range v.Questions {
				if strings.HasPrefix(q.Diagram, sameTracePrefix) {
					pointed++
					continue
				}
				for k := range j {
					if v.Questions[k].Diagram == q.Diagram {
						t.Errorf("step %s, student-%d: questions %d and %d print the same trace", s.ID, n, k+1, j+1)
					}
				}
			}
		}
	}
	t.Logf("%d reveals pointed at an earlier question's trace", pointed)
}
