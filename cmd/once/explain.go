package main

import (
	"io"
	"os"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
)

type explainOptions struct {
	format string
	scenarioFlag
}

func newExplainCmd() *cobra.Command {
	o := &explainOptions{}
	cmd := &cobra.Command{
		Use:  "explain SCENARIO | -f FILE",
		Args: o.scenarioArgs,
		Example: `  once explain double-billing
  once explain at-least-once-duplicate --format md > lesson.md
  once explain -f my-scenario.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExplain(o, args, cmd.OutOrStdout())
		},
	}
	o.registerFile(cmd)
	cmd.Flags().StringVar(&o.format, "format", "text", "output: text|md")
	return cmd
}

func runExplain(o *explainOptions, args []string, stdout io.Writer) error {
	if err := checkFormat(o.format, "text", "md"); err != nil {
		return err
	}
	sc, err := o.scenario(args)
	if err != nil {
		return err
	}
	doc := runs.Explain(sc.Shown()) // text and md: control characters escaped
	if o.format == "md" {
		return report.WriteExplainMarkdown(stdout, doc)
	}
	return report.WriteExplainText(colorprofile.NewWriter(stdout, os.Environ()), doc)
}
