package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/fileio"
	course "github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lessonview"
)

func newLessonGradeCmd() *cobra.Command {
	var key string
	cmd := &cobra.Command{
		Use:   "grade FILE...",
		Short: "A class's roster from result files (once lesson --plain --student NAME --token TOKEN --result FILE): every answer recomputed, scores and per-question success rates",
		Long: `grade recomputes each student's result from the name and the class key,
never from the file: the token must be the one the key issues to the
name, the course version the one this once prints, and every answer is
scored against the student's own runs (their seeds derive from the
token). A result file holds the name, the token, the course version and
the answers given; anything else in it — an unknown field, a second
answer to one question, a step the course does not have, data after the
JSON, a file larger than 1 MiB — is refused, as are a practice result
(no token) and a second file of the same student: one line naming the
file and the reason, exit 2, and no roster.

The class key comes from --class-key or from the environment variable
ONCE_CLASS_KEY (which keeps it out of the shell's history).`,
		Args: cobra.MinimumNArgs(1),
		Example: `  ONCE_CLASS_KEY=… once lesson grade results/*.json
  once lesson grade --class-key "$(cat class.key)" ada.json bogdan.json --lang ro`,
		RunE: func(cmd *cobra.Command, args []string) error {
			k, err := course.ClassKey(key)
			if err != nil {
				return usageErr("%v", err)
			}
			if k == "" {
				return usageErr("grade needs the class key the tokens were issued with: --class-key KEY or %s", course.ClassKeyEnv)
			}
			c, err := course.Load()
			if err != nil {
				return err
			}
			g, err := course.NewGrader(c, k)
			if err != nil {
				return err
			}
			var graded []*course.Graded
			var seen []os.FileInfo
			for _, f := range args {
				name := course.Escape(f)
				info, err := os.Stat(f) // before reading: a file given twice is refused unread
				if err == nil {
					for i, s := range seen {
						if s != nil && os.SameFile(s, info) {
							return usageErr("%s: given twice (also as %s): each result is graded once", name, course.Escape(args[i]))
						}
					}
				}
				seen = append(seen, info)
				data, err := fileio.Read(f, course.MaxRecord)
				if err != nil {
					return usageErr("%s: %v", name, err)
				}
				r, err := course.ParseRecord(data)
				if err != nil {
					return usageErr("%s: %v", name, err)
				}
				gr, err := g.Grade(r)
				if err != nil {
					return usageErr("%s: %v", name, strings.TrimPrefix(err.Error(), "lesson: "))
				}
				graded = append(graded, gr)
			}
			v, err := course.Version()
			if err != nil {
				return err
			}
			return lessonview.WriteRoster(cmd.OutOrStdout(), v, graded)
		},
	}
	cmd.Flags().StringVar(&key, "class-key", "", "the class key the tokens were issued with (default $ONCE_CLASS_KEY)")
	return cmd
}
