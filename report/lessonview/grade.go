package lessonview

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

// WriteRoster prints a class's results as grade recomputed them: the
// course version, one row per student (name, right of asked, the letters
// given), then one row per question with its success rate, so an
// instructor sees which question the class got wrong. Names are printed
// escaped (lesson.Escape): they come from files.
func WriteRoster(w io.Writer, version string, records []*lesson.Graded) error {
	fmt.Fprintf(w, "%s\n\n", lang.Tf("lesson.grade.course", map[string]any{"Version": version}))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\n", lang.T("lesson.grade.student"), lang.T("lesson.grade.score"), lang.T("lesson.grade.answers"))
	for _, r := range lesson.SortedByStudent(records) {
		var given []string
		for _, a := range r.Answers {
			g := a.Letter
			if g == "" {
				g = "-"
			}
			if a.Right {
				g = strings.ToUpper(g)
			}
			given = append(given, g)
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\n", lesson.Escape(r.Student), r.Right, len(r.Answers), strings.Join(given, ""))
	}
	fmt.Fprintf(tw, "\n%s\t%s\t%s\n", lang.T("lesson.grade.question"), lang.T("lesson.grade.right"), lang.T("lesson.grade.rate"))
	for _, q := range lesson.Rates(records) {
		fmt.Fprintf(tw, "%s\t%d/%d\t%.0f %%\n", q.ID, q.Right, q.Asked, 100*float64(q.Right)/float64(q.Asked))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("lesson grade: %w", err)
	}
	_, err := fmt.Fprintln(w, lang.T("lesson.grade.legend"))
	return err
}
