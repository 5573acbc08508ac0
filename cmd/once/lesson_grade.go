package main

import (
	"errors"

	"github.com/spf13/cobra"

	course "github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lessonview"
)

func newLessonGradeCmd() *cobra.Command {
	var key, steps string
	cmd := &cobra.Command{
		Use:     "grade FILE...",
		Args:    cobra.MinimumNArgs(1),
		Example: `  ONCE_CLASS_KEY=… once lesson grade results/*.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return lessonErr(lessonview.Grade(cmd.OutOrStdout(), key, steps, args))
		},
	}
	cmd.Flags().StringVar(&key, "class-key", "", "the class key the tokens were issued with (default $ONCE_CLASS_KEY)")
	cmd.Flags().StringVar(&steps, "steps", "", "the steps given out, as the lesson takes them (1,3 or ids): a result that leaves one out scores its questions as unanswered")
	return cmd
}

func newLessonTokensCmd() *cobra.Command {
	var key string
	cmd := &cobra.Command{
		Use:     "tokens",
		Args:    cobra.NoArgs,
		Example: `  export ONCE_CLASS_KEY="$(head -c 24 /dev/urandom | base64)"; once lesson tokens < names.txt`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return lessonErr(lessonview.Tokens(cmd.OutOrStdout(), key, cmd.InOrStdin()))
		},
	}
	cmd.Flags().StringVar(&key, "class-key", "", "the class key (default $ONCE_CLASS_KEY)")
	return cmd
}

// lessonErr is err as the user's mistake (exit 2, one line) when the
// lesson refused an input.
func lessonErr(err error) error {
	if ie := (*course.InputError)(nil); errors.As(err, &ie) {
		return usageErr("%v", err)
	}
	return err
}
