package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/fileio"
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
	result  string
	slides  bool
}

func newLessonCmd() *cobra.Command {
	o := &lessonOptions{}
	cmd := &cobra.Command{
		Use:   "lesson",
		Short: "The guided lesson: the module's scenarios in the course's order, predict then reveal, with a score",
		Long: `lesson walks the module in the course's order: double billing, the three
semantics, the Two Generals, idempotency keys and 409/422/400, durable
keys, TTL and the retry horizon, upsert by natural key, set vs increment,
windowed aggregates, the outbox, Kafka exactly-once and its boundary,
Flink's two-phase commit, reconciliation. Each step tells the story, asks
you to predict what this run will do (how many, which operation, which
message), runs the broken variant and its fix side by side, shows the
results with the trace and why, and keeps a score.

--student NAME gives every step a seed of the student's own (the first
seed at or after hash(NAME, step) whose runs still show the step's
lesson), so two students get different runs and different answers; the
text says which seed each command replays. Without it, the course's own
seeds. --result FILE (with the line quiz) writes the answers and the score
as JSON; "once lesson grade FILE…" prints the class's roster and the
success rate of every question.

On a terminal it opens an interactive screen; --plain (and any output that
is not a terminal) makes it a line quiz that reads one answer per line from
standard input — a number or a letter —, so it works over ssh and from a
file of answers. --out DIR writes the lesson pack for an instructor instead,
in two editions: student/ (story, commands, diagrams, questions) and
teacher/ (the same with the outcomes, the answers, "For the teacher" and
the timing of a 90-minute class), one Markdown page and its HTML twin per
step; the diagrams are the project's own SVG, one per semantics, and no
page loads anything from the network. --slides adds slides/, the
diagrams as 16:9 pages.`,
		Args: cobra.NoArgs,
		Example: `  once lesson
  once lesson --plain --lang ro
  once lesson --plain --from outbox < answers.txt
  once lesson --plain --student ada --result ada.json
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
	cmd.Flags().StringVar(&o.student, "student", "", "run every step on this student's own seed (the text says which)")
	cmd.Flags().StringVar(&o.result, "result", "", "with the line quiz: write the answers and the score to FILE (JSON)")
	cmd.Flags().BoolVar(&o.slides, "slides", false, "with --out: add slides/, the diagrams as 16:9 pages (1920×1080, text at least 18 px)")
	cmd.AddCommand(newLessonGradeCmd())
	return cmd
}

func runLesson(o *lessonOptions, in io.Reader, out io.Writer) error {
	c, err := course.Load()
	if err != nil {
		return err
	}
	steps, err := c.Select(o.from, o.steps)
	if err != nil {
		return usageErr("%v", err)
	}
	if o.student != "" {
		if strings.TrimSpace(o.student) == "" {
			return usageErr("--student: an empty name")
		}
		if c, err = c.ForStudent(o.student); err != nil {
			return err
		}
	}
	if o.out != "" {
		if o.result != "" {
			return usageErr("--result: only with the line quiz, not with --out")
		}
		return writeLessonPack(c, steps, o.out, o.force, o.slides, out)
	}
	if o.force || o.slides {
		return usageErr("--force and --slides: only with --out DIR")
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
// (when given) once the quiz ends.
func runPlainLesson(c *course.Course, steps []int, result string, in io.Reader, out io.Writer) error {
	rec, err := lessonview.Quiz(c, steps, in, out)
	if err != nil {
		return err
	}
	if result == "" {
		return nil
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("lesson: --result: %w", err)
	}
	if err := fileio.WriteAtomic([]string{result}, [][]byte{append(data, '\n')}); err != nil {
		return usageErr("--result %v", err)
	}
	return nil
}
