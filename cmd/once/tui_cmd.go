package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/progress"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/tui"
)

type tuiOptions struct {
	scenarioFlag
	semantics string
	seed      uint64
	ops       int
	faults    simFlags // the fault flags and --set only
}

func newTUICmd() *cobra.Command { return tuiCommand(&tuiOptions{}) }

// tuiCommand is `once tui` with its flags bound to o.
func tuiCommand(o *tuiOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use: "tui [SCENARIO | -f FILE]",
		Args: func(_ *cobra.Command, args []string) error {
			switch {
			case len(args) > 1:
				return usageErr("want at most one SCENARIO argument, got %d", len(args))
			case len(args) == 1 && o.file != "":
				return usageErr("give a SCENARIO name or -f %s, not both", o.file)
			}
			return nil
		},
		Example: `  once tui
  once tui double-billing
  once tui double-billing --semantics alo --seed 3
  once tui outbox --semantics idem --set write=publish-then-commit
  once tui -f my-scenario.yaml
  once tui double-billing --semantics alo --pause 0.3 --lang ro`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := tuiStart(o, args)
			if err != nil {
				return err
			}
			in, out := cmd.InOrStdin(), cmd.OutOrStdout()
			if w, ok := in.(io.Writer); !ok || !progress.IsTerminal(w) || !progress.IsTerminal(out) {
				return usageErr("tui needs a terminal on stdin and stdout; without one, try: once run %s --format trace, or once lesson --plain", tuiExample(args, o.file))
			}
			return tui.Run(opts, in, out)
		},
	}
	o.registerFile(cmd)
	cmd.Flags().StringVar(&o.semantics, "semantics", "", "semantics of the first run: amo|alo|idem|txn (default: the scenario's first)")
	cmd.Flags().Uint64Var(&o.seed, "seed", 1, "seed of the first run")
	cmd.Flags().IntVar(&o.ops, "ops", 0, "operations of the first run (default: the scenario's)")
	o.faults.flags = cmd.Flags()
	o.faults.registerFaults(cmd.Flags())
	cmd.Flags().StringArrayVar(&o.faults.sets, "set", nil, "scenario parameter name=value of the first run (repeatable)")
	return cmd
}

// tuiExample names the scenario of the command line for a suggestion.
func tuiExample(args []string, file string) string {
	switch {
	case file != "":
		return "-f " + file
	case len(args) == 1:
		return args[0]
	}
	return "SCENARIO"
}

// tuiStart resolves the command line into where the explorer starts: the
// scenario, and its first run's semantics, seed, ops, faults and
// parameters. A scenario given alone opens on its headline lesson.
func tuiStart(o *tuiOptions, args []string) (tui.Options, error) {
	opts := tui.Options{Seed: o.seed, Ops: o.ops}
	if o.ops < 0 || o.ops > tui.MaxOps {
		return opts, usageErr("--ops %d: want 1..%d", o.ops, tui.MaxOps)
	}
	if o.semantics != "" {
		sem, err := sim.ParseSemantics(o.semantics)
		if err != nil {
			return opts, usageErr("--semantics: %v", err)
		}
		opts.Semantics = sem
	}
	opts.Headline = true // every scenario opens on its lesson, named or picked
	if len(args) == 1 || o.file != "" {
		sc, err := o.scenario(args)
		if err != nil {
			return opts, err
		}
		if opts.Semantics != 0 && !sc.Supports(opts.Semantics) {
			return opts, usageErr("--semantics %s: scenario %s does not support it", opts.Semantics.Alias(), sc.Name)
		}
		o.faults.ops = o.ops // --ops is the TUI's own flag; settingsFor checks it when given
		set, err := o.faults.settingsFor(sc)
		if err != nil {
			return opts, usageErr("%v", err)
		}
		opts.Open(sc.Shown(), set) // a file's texts with their control characters escaped
		return opts, nil
	}
	for _, name := range append(sim.FaultSettingNames(), "set") {
		if o.faults.flags.NFlag() > 0 && o.faults.flags.Changed(name) {
			return opts, usageErr("--%s: name a SCENARIO to run with it", name)
		}
	}
	opts.Scenarios = scenarios.All()
	return opts, nil
}
