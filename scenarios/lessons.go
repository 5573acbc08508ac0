package scenarios

import (
	_ "embed"
	"fmt"
	"strings"
)

//go:embed lessons.txt
var lessonsText string

// Numbered is a catalog scenario with its number in the order of the
// lessons: "7", or "7a" for a variation on lesson 7.
type Numbered struct {
	Number, Name string
}

// LessonOrder is the catalog in the order of the lessons (lessons.txt),
// as README.md's scenario table numbers it. An error names the line of
// the file that does not parse; whether it lists every catalog scenario
// once is a test's business.
func LessonOrder() ([]Numbered, error) {
	var out []Numbered
	for i, line := range strings.Split(lessonsText, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("scenarios/lessons.txt:%d: want NUMBER NAME, got %q", i+1, line)
		}
		out = append(out, Numbered{Number: f[0], Name: f[1]})
	}
	return out, nil
}
