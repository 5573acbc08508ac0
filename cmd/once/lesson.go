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
	"github.com/oncesim/once/report/lang"
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

--student NAME --token TOKEN gives every step a seed of the student's own
(the first seed at or after a hash of the token and the step whose runs
still show the step's lesson), so two students get different runs and
different answers; the text says which seed each command replays. The
instructor issues the tokens ("once lesson tokens"): a token is an HMAC of
the name under the class key, so nobody can compute another student's
seeds. --student without --token is practice: seeds from the name alone,
which grade refuses. Without --student, the course's own seeds, printed
with the commands before the questions. --result FILE (with the line
quiz) writes the name, the token, the course version and the answers
given — no seed, no right answer, no score; "once lesson grade
--class-key KEY FILE…" recomputes every answer and prints the class's
roster and the success rate of every question.

On a terminal it opens an interactive screen; --plain (and any output that
is not a terminal) makes it a line quiz that reads one answer per line from
standard input — a number or a letter —, so it works over ssh and from a
file of answers. --out DIR writes the lesson pack for an instructor instead:
student/ (story, commands, diagrams, questions) and, with the class key,
teacher/ (the same with the outcomes, the answers, "For the teacher" and
the timing of a 90-minute class), one Markdown page and its HTML twin per
step; the diagrams are the project's own SVG, one per semantics, and no
page loads anything from the network. --slides (with the class key) adds
slides/, the diagrams as 16:9 pages.

The class key comes from --class-key or, to keep it out of the shell's
history, from the environment variable ONCE_CLASS_KEY; at least 16 bytes.`,
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
	cmd.Flags().StringVar(&o.result, "result", "", "with the line quiz: write the answers and the score to FILE (JSON)")
	cmd.Flags().BoolVar(&o.slides, "slides", false, "with --out: add slides/, the diagrams as 16:9 pages (1920×1080, text at least 18 px)")
	cmd.AddCommand(newLessonGradeCmd(), newLessonTokensCmd())
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
	practice := false
	switch {
	case o.student == "" && o.token != "":
		return usageErr("--token: only with --student NAME")
	case o.student != "" && strings.TrimSpace(o.student) == "":
		return usageErr("--student: an empty name")
	case o.student != "" && o.token != "":
		if c, err = c.ForIssued(o.student, o.token); err != nil {
			return usageErr("%v", strings.TrimPrefix(err.Error(), "lesson: "))
		}
	case o.student != "":
		if c, err = c.ForStudent(o.student); err != nil {
			return usageErr("%v", strings.TrimPrefix(err.Error(), "lesson: "))
		}
		practice = true
	}
	if o.out != "" {
		if o.result != "" {
			return usageErr("--result: only with the line quiz, not with --out")
		}
		key, err := course.ClassKey(o.key)
		if err != nil {
			return usageErr("%v", err)
		}
		if o.slides && key == "" {
			return usageErr("--slides: the slides reveal the answers: give the class key (--class-key or %s)", course.ClassKeyEnv)
		}
		return writeLessonPack(c, steps, o.out, o.force, o.slides, key != "", out)
	}
	if o.key != "" {
		return usageErr("--class-key: only with --out DIR (a student needs --token, not the key)")
	}
	if o.force || o.slides {
		return usageErr("--force and --slides: only with --out DIR")
	}
	if o.plain || !progress.IsTerminal(out) {
		if practice {
			fmt.Fprintf(out, "%s\n", lang.T("lesson.practice"))
		}
		return runPlainLesson(c, steps, o.result, in, out)
	}
	if o.result != "" {
		return usageErr("--result: only with the line quiz (add --plain)")
	}
	return lesson.Run(c, steps, in, out)
}

// runPlainLesson runs the line quiz and writes its record to result
// (when given) once the quiz ends: the name, the token, the course
// version and the answers given, nothing grade would have to trust.
func runPlainLesson(c *course.Course, steps []int, result string, in io.Reader, out io.Writer) error {
	rec, err := lessonview.Quiz(c, steps, in, out)
	if err != nil {
		return err
	}
	if result == "" {
		return nil
	}
	if rec.Course, err = course.Version(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("lesson: --result: %w", err)
	}
	if err := fileio.WriteAtomic([]string{result}, [][]byte{append(data, '\n')}); err != nil {
		return usageErr("--result %v", err)
	}
	fmt.Fprintf(out, "%s\n", lang.Tf("lesson.result_written", map[string]any{"File": result, "Version": rec.Course}))
	return nil
}
