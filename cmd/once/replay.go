package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios/plans"
	"github.com/oncesim/once/sim"
)

type replayOptions struct {
	file      string
	format    string
	check     bool
	semantics string
}

func newReplayCmd() *cobra.Command {
	o := &replayOptions{}
	cmd := &cobra.Command{
		Use: "replay FILE",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("want one plan FILE argument, got %d", len(args))
			}
			return nil
		},
		Example: `  once run double-billing --semantics alo --seed 3 --save plan.txt
  once replay plan.txt --format trace
  once replay plan.txt --semantics all --format svg
  once replay plan.txt -f ~/course/my-scenario.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(o, args[0], cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output: text|json|trace|mermaid|svg|md (svg: space-time diagrams side by side; md: one fenced Mermaid block per semantics)")
	cmd.Flags().StringVarP(&o.file, "file", "f", "", "the scenario file (YAML) the plan was made from, wherever it is (a plan's own file line must stay under the plan's directory or the current directory)")
	cmd.Flags().BoolVar(&o.check, "check", false, "exit 1 if the promise is violated, 3 if it could not be shown (unfinished)")
	cmd.Flags().StringVar(&o.semantics, "semantics", "", "apply the plan's faults under these semantics instead of the plan's own: all, or a comma-separated list (one schedule, side by side)")
	return cmd
}

func runReplay(o *replayOptions, file string, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, runs.Formats...); err != nil {
		return err
	}
	l, err := plans.Load(file, o.file)
	if err != nil {
		return usageErr("%v", err)
	}
	sems := []sim.Semantics{l.Plan.Semantics}
	if o.semantics != "" {
		if sems, err = runs.ParseSemantics(o.semantics, l.Scenario); err != nil {
			return usageErr("%v", err)
		}
	}
	rs, err := runs.Replay(l, file, sems, o.check, stderr)
	if err != nil {
		return usageErr("%v", err)
	}
	if err := runs.Render(stdout, o.format, l.Scenario, l.Plan.Seed, l.Settings, rs, nil); err != nil {
		return err
	}
	if o.check {
		return checkExit(runs.Verdict(rs))
	}
	return nil
}
