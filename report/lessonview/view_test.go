package lessonview

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

var idUse = regexp.MustCompile(`lang\.(?:T|Tf|N)\("([^"]+)"`)

// Every message id the lesson uses exists in every language: the literal
// ones in its code, and those built from the course (step titles,
// question kinds, choices not in the scenario's own words).
func TestLessonMessagesExist(t *testing.T) {
	var ids []string
	var files []string
	for _, pattern := range []string{"*.go", "../../cmd/once/lesson*.go", "../../tui/lesson/*.go"} {
		f, _ := filepath.Glob(pattern)
		files = append(files, f...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range idUse.FindAllStringSubmatch(string(data), -1) {
			if !strings.HasSuffix(m[1], ".") {
				ids = append(ids, m[1])
			}
		}
	}
	if len(ids) < 20 {
		t.Fatalf("found only %d ids: is the pattern stale?", len(ids))
	}
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.AllTracks().Steps {
		ids = append(ids, "lesson.step."+s.ID, "lesson.part."+s.Part)
		for _, q := range s.Bank {
			switch {
			case q.Ask == lesson.AskMetric:
				ids = append(ids, "lesson.metric."+q.Name)
			case q.Ask == lesson.AskCause:
				ids = append(ids, "lesson.question.cause_"+q.Class)
			case q.Ask == lesson.AskBreaks:
				ids = append(ids, "lesson.question.breaks")
				for _, f := range q.Faults {
					ids = append(ids, "lesson.choice.fault."+f)
				}
			case q.Class == lesson.ClassCaught:
				ids = append(ids, "lesson.question."+q.Ask+"_caught")
			default:
				ids = append(ids, "lesson.question."+q.Ask)
			}
		}
	}
	for _, k := range []string{"last", "first", "enough", "two-lost", "general-down"} {
		ids = append(ids, "lesson.choice.cut."+k)
	}
	for _, l := range lang.Languages() {
		for _, id := range ids {
			if got := l.T(id); got == id {
				t.Errorf("%s: message %s is missing", l, id)
			}
		}
	}
}

// Building a step twice gives the same view: the runs are deterministic.
func TestBuildDeterministic(t *testing.T) {
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := Build(c, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Build(c, 4)
	for i := range a.Questions {
		if a.Questions[i].Diagram != b.Questions[i].Diagram || a.Questions[i].Answer != b.Questions[i].Answer {
			t.Fatalf("question %d differs between two builds", i+1)
		}
	}
}
