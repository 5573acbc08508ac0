package lessonview

import (
	"bufio"
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
			given = append(given, a.Mark())
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

// Tokens is `once lesson tokens`: the class key of flag (or
// ONCE_CLASS_KEY), the names read from in (lesson.ReadNames), and the
// token the key issues to each name printed, one "name<TAB>token" line
// each, after a comment line naming the course version the class will
// answer. Refusals are *lesson.InputError; nothing is printed then.
func Tokens(w io.Writer, flag string, in io.Reader) error {
	classKey, err := lesson.NeedClassKey(flag, "tokens")
	if err != nil {
		return err
	}
	names, err := lesson.ReadNames(in)
	if err != nil {
		return &lesson.InputError{Err: err}
	}
	version, err := lesson.Version()
	if err != nil {
		return err
	}
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# once lesson tokens · %s\n", version)
	for _, n := range names {
		fmt.Fprintf(b, "%s\t%s\n", n, lesson.Token(classKey, n))
	}
	return b.Flush()
}

// Grade is `once lesson grade`: the class key of flag (or
// ONCE_CLASS_KEY), every file graded (lesson.GradeFiles: recomputed,
// never read from the file) — on the steps given (--steps, as the lesson
// takes them: a step a result leaves out counts as unanswered; "": each
// result on the steps it answers) — and the roster printed. Refusals are
// *lesson.InputError naming the file; nothing is printed then.
func Grade(w io.Writer, flag, steps string, files []string) error {
	classKey, err := lesson.NeedClassKey(flag, "grade")
	if err != nil {
		return err
	}
	c, err := lesson.Load()
	if err != nil {
		return err
	}
	all := c.AllTracks()
	var required []int
	if steps != "" {
		if required, err = all.Select("", steps); err != nil {
			return &lesson.InputError{Err: fmt.Errorf("--steps: %w", err)}
		}
	}
	graded, err := lesson.GradeFiles(all, classKey, required, files)
	if err != nil {
		return err
	}
	version, err := lesson.Version()
	if err != nil {
		return err
	}
	return WriteRoster(w, version, graded)
}
