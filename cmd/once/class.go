package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/class"
)

func newClassCmd() *cobra.Command {
	o := class.Options{}
	cmd := &cobra.Command{
		Use:     "class",
		Args:    cobra.NoArgs,
		Example: "  once class --lang ro\n  once class --listen 0.0.0.0:8080 --code random --steps 1,2,3",
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return lessonErr(class.Run(ctx, o, cmd.OutOrStdout()))
		},
	}
	cmd.Flags().StringVar(&o.Dir, "dir", "once-class", "the class's directory: its state (class.db) and its key (class.key)")
	cmd.Flags().StringVar(&o.Listen, "listen", class.DefaultListen, "the address to serve on (HOST:PORT); off loopback only with --code")
	cmd.Flags().StringVar(&o.Code, "code", "", "the join code students type (random draws one); required off loopback")
	cmd.Flags().IntVar(&o.MaxStudents, "max-students", class.DefaultMaxStudents, "how many students may join")
	cmd.Flags().StringVar(&o.ClassKey, "class-key", "", "the class key (default $ONCE_CLASS_KEY, else DIR/class.key, drawn on the first start)")
	cmd.Flags().StringVar(&o.Steps, "steps", "", "only these steps: numbers or ids, comma-separated")
	return cmd
}
