package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/progress"
	course "github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lessonview"
	"github.com/oncesim/once/tui/lesson"
)

type lessonOptions struct {
	plain   bool
	out     string
	force   bool
	from    string
	steps   string
	student string
	token   string
	key     string
	result  string
	slides  bool
	track   string
}

func newLessonCmd() *cobra.Command {
	o := &lessonOptions{}
	cmd := &cobra.Command{
		Use:  "lesson",
		Args: cobra.NoArgs,
		Example: `  once lesson
  once lesson --plain --lang ro
  once lesson --plain --from outbox < answers.txt
  once lesson tokens < names.txt          # with ONCE_CLASS_KEY set
  once lesson --plain --student ada --token 7k2m-… --result ada.json
  once lesson grade ada.json bogdan.json chen.json
  once lesson --out pack --lang ro --slides`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLesson(o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.plain, "plain", false, "a line-oriented quiz on standard input and output (the default when output is not a terminal)")
	cmd.Flags().StringVar(&o.out, "out", "", "write the lesson pack (Markdown, HTML, SVG) into DIR instead of asking")
	cmd.Flags().BoolVar(&o.force, "force", false, "with --out: replace a DIR that is not empty")
	cmd.Flags().StringVar(&o.from, "from", "", "start at this step (its number or id) and go on to the end")
	cmd.Flags().StringVar(&o.steps, "steps", "", "only these steps: numbers or ids, comma-separated")
	cmd.Flags().StringVar(&o.student, "student", "", "run every step on this student's own seed (the text says which); without --token, practice")
	cmd.Flags().StringVar(&o.token, "token", "", "with --student: the token the instructor issued to that name (once lesson tokens)")
	cmd.Flags().StringVar(&o.key, "class-key", "", "with --out: the class key, which writes the teacher's edition (default $ONCE_CLASS_KEY)")
	cmd.Flags().StringVar(&o.result, "result", "", "with the line quiz: write the name, token, course version and letters given to FILE (JSON)")
	cmd.Flags().BoolVar(&o.slides, "slides", false, "with --out: add slides/, the diagrams as 16:9 pages (1920×1080, text at least 18 px)")
	cmd.Flags().StringVar(&o.track, "track", course.TrackCore, "core (the module, 80 minutes) or advanced (the rest of the catalog)")
	cmd.AddCommand(newLessonGradeCmd(), newLessonTokensCmd())
	return cmd
}

func runLesson(o *lessonOptions, in io.Reader, out io.Writer) error {
	c, err := course.Load()
	if err != nil {
		return err
	}
	if c, err = c.Track(o.track); err != nil {
		return usageErr("%v", err)
	}
	steps, err := c.Select(o.from, o.steps)
	if err != nil {
		return usageErr("%v", err)
	}
	if c, err = c.ForFlags(o.student, o.token); err != nil {
		return usageErr("%v", err)
	}
	if o.out != "" {
		if o.result != "" {
			return usageErr("--result: only with the line quiz, not with --out")
		}
		key, err := course.ClassKey(o.key)
		if o.slides {
			key, err = course.NeedClassKey(o.key, "--slides (they reveal the answers)")
		}
		if err != nil {
			return usageErr("%v", err)
		}
		return writeLessonPack(c, steps, o.out, o.force, o.slides, key != "", out)
	}
	if o.force || o.slides || o.key != "" {
		return usageErr("--force, --slides and --class-key: only with --out DIR")
	}
	if o.plain || !progress.IsTerminal(out) {
		return runPlainLesson(c, steps, o.result, in, out)
	}
	if o.result != "" {
		return usageErr("--result: only with the line quiz (add --plain)")
	}
	return lesson.Run(c, steps, in, out)
}

// runPlainLesson runs the line quiz and writes its record to result
// (when given) once the quiz ends (see lessonview.WriteResult).
func runPlainLesson(c *course.Course, steps []int, result string, in io.Reader, out io.Writer) error {
	rec, err := lessonview.Quiz(c, steps, in, out)
	if err != nil || result == "" {
		return err
	}
	return lessonErr(lessonview.WriteResult(result, rec, out))
}
