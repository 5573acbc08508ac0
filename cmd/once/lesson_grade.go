package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/fileio"
	"github.com/oncesim/once/report/lessonview"
	course "github.com/oncesim/once/scenarios/lesson"
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

// writeFileAtomic writes data to path through a temporary file renamed
// into place: a failed write leaves nothing half-written.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".once-result-*")
	if err != nil {
		return usageErr("--result %s: cannot create a file in %s: %v", path, filepath.Dir(path), fileio.UnwrapPath(err))
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return usageErr("--result %s: %v", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return usageErr("--result %s: %v", path, err)
	}
	return nil
}
