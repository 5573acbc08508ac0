package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/fileio"
	course "github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lessonview"
)

func newLessonGradeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "grade FILE...",
		Short: "A class's roster from result files (once lesson --plain --student NAME --result FILE): scores and per-question success rates",
		Args:  cobra.MinimumNArgs(1),
		Example: `  once lesson grade results/*.json
  once lesson grade ada.json bogdan.json --lang ro`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var records []*course.Record
			for _, f := range args {
				data, err := os.ReadFile(f)
				if err != nil {
					return usageErr("%s: %v", f, fileio.UnwrapPath(err))
				}
				r, err := course.ParseRecord(data)
				if err != nil {
					return usageErr("%s: %v", f, err)
				}
				records = append(records, r)
			}
			return lessonview.WriteRoster(cmd.OutOrStdout(), records)
		},
	}
}
