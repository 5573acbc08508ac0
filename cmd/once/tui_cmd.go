package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/cmd/once/tui"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

type tuiOptions struct {
	scenarioFlag
	semantics string
	seed      uint64
	ops       int
	faults    simFlags // the fault flags only
}

func newTUICmd() *cobra.Command {
	o := &tuiOptions{}
	cmd := &cobra.Command{
		Use:   "tui [SCENARIO | -f FILE]",
		Short: "Explore runs interactively: step through the trace, drop a message, see the verdicts change",
		Long: `tui opens the interactive explorer. Pick a scenario, step through the
trace of one seeded run event by event, watch the per-operation ledger and a
space-time diagram of the events around the cursor, and ask what-ifs: x on a
message drops it (or undoes its drop) and replays the run's faults with that
one change, showing which verdicts it changed. Press ? for the keys.`,
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
  once tui double-billing --semantics alo --seed 3
  once tui -f my-scenario.yaml
  once tui double-billing --semantics alo --pause 0.3`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTUI(o, args, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	o.registerFile(cmd)
	cmd.Flags().StringVar(&o.semantics, "semantics", "", "semantics of the first run: amo|alo|idem|txn (default: the scenario's first)")
	cmd.Flags().Uint64Var(&o.seed, "seed", 1, "seed of the first run")
	cmd.Flags().IntVar(&o.ops, "ops", 0, "operations of the first run (default: the scenario's)")
	o.faults.flags = cmd.Flags()
	o.faults.registerFaults(cmd.Flags())
	return cmd
}

func runTUI(o *tuiOptions, args []string, in io.Reader, out io.Writer) error {
	opts := tui.Options{Seed: o.seed, Ops: o.ops}
	if o.ops < 0 || o.ops > tui.MaxOps {
		return usageErr("--ops %d: want 1..%d", o.ops, tui.MaxOps)
	}
	if o.semantics != "" {
		sem, err := sim.ParseSemantics(o.semantics)
		if err != nil {
			return usageErr("--semantics: %v", err)
		}
		opts.Semantics = sem
	}
	if len(args) == 1 || o.file != "" {
		sc, err := o.scenario(args)
		if err != nil {
			return err
		}
		if opts.Semantics != 0 && !sc.Supports(opts.Semantics) {
			return usageErr("--semantics %s: scenario %s does not support it", opts.Semantics.Alias(), sc.Name)
		}
		set, err := o.faults.settingsFor(sc)
		if err != nil {
			return usageErr("%v", err)
		}
		if set.Faults != sc.Faults { // a fault flag: the scenario with that profile replaces the catalog's
			withFaults := *sc
			withFaults.Faults = set.Faults
			sc = &withFaults
		}
		opts.Start = sc
	} else if o.faults.flags.NFlag() > 0 {
		for _, name := range sim.FaultSettingNames() {
			if o.faults.flags.Changed(name) {
				return usageErr("--%s: name a SCENARIO to run with it", name)
			}
		}
	}
	for _, s := range scenarios.All() {
		if opts.Start == nil || s.Name != opts.Start.Name || s == opts.Start {
			opts.Scenarios = append(opts.Scenarios, s)
		}
	}
	return tui.Run(opts, in, out)
}
