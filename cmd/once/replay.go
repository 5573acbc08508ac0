package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/fileio"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
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
		Use:   "replay FILE",
		Short: "Re-run a saved fault plan (from run --save) exactly",
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
	cmd.Flags().BoolVar(&o.check, "check", false, "exit 1 if the promise is violated or could not be shown")
	cmd.Flags().StringVar(&o.semantics, "semantics", "", "apply the plan's faults under these semantics instead of the plan's own: all, or a comma-separated list (one schedule, side by side)")
	return cmd
}

func unwrapPath(err error) error { return fileio.UnwrapPath(err) }

func runReplay(o *replayOptions, file string, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, "text", "json", "trace", "mermaid", "svg", "md"); err != nil {
		return err
	}
	l, err := plans.Load(file, o.file)
	if err != nil {
		return usageErr("%v", err)
	}
	plan, sc, cfg, faults := l.Plan, l.Scenario, l.Config, l.Faults
	sems := []sim.Semantics{plan.Semantics}
	if o.semantics != "" {
		f := simFlags{semantics: o.semantics}
		if sems, err = f.semanticsFor(sc); err != nil {
			return usageErr("%v", err)
		}
	}
	var jitter func() sim.Chooser
	if plan.Jitter {
		jitter = func() sim.Chooser { return sim.NewJitter(plan.Seed) }
	}
	set := scenarios.Settings{Semantics: plan.Semantics, Ops: plan.Ops, Faults: plan.Faults, Params: plan.Params,
		MaxEvents: plan.MaxEvents, MaxTime: plan.MaxTime}
	var runs []simulated
	for _, sem := range sems {
		runCfg, runFaults := cfg, faults
		if sem != plan.Semantics {
			// The same plan under another semantics: faults name what they
			// hit by identity, so they resolve against its topology.
			set.Semantics = sem
			if runCfg, err = sc.Config(set); err != nil {
				return usageErr("%s: %s: %v", file, sem.Alias(), err)
			}
			if runFaults, err = plan.Resolve(file, runCfg.Topology); err != nil {
				return usageErr("%s (under %s): %v", file, sem.Alias(), err)
			}
		}
		var rest sim.Chooser
		if jitter != nil {
			rest = jitter()
		}
		chooser := sim.NewScripted(runFaults, rest)
		// Recorded, the faults are those the run met: a fault whose
		// message this semantics never sends is not listed as a hit.
		rec := sim.NewRecording(chooser)
		trace := &sim.Trace{}
		w, err := sim.NewWorld(runCfg, rec, trace)
		if err != nil {
			return fmt.Errorf("replay %s: %w", sem, err)
		}
		out := w.Run()
		fmt.Fprintln(stderr, lang.Nf("replay.hit", len(runFaults), map[string]any{"File": file, "Semantics": sem.Alias(), "Hit": chooser.Used()}))
		replay := "once replay " + file
		if sem != plan.Semantics {
			replay += " --semantics " + sem.Alias()
		}
		r := simulated{cfg: runCfg, outcome: out, trace: trace, faults: rec.Faults, replay: replay}
		if o.check && out.Status == sim.Violated {
			cex, _, err := shrinkViolation(runCfg, sem.Promise(), runFaults, jitter)
			if err != nil {
				return err
			}
			cex.Replay = replay
			r.shrunk = cex
		}
		runs = append(runs, r)
	}
	set.Semantics = plan.Semantics
	if err := render(stdout, o.format, sc, plan.Seed, set, runs, nil); err != nil {
		return err
	}
	return checkRuns(o.check, runs)
}

// loadPlan reads and resolves a plan file (a forwarding wrapper for the
// lab and live commands; see plans.Load). Every problem is a usage error.
func loadPlan(file string) (*scenarios.Plan, *scenarios.Scenario, *sim.Config, []sim.Fault, error) {
	l, err := plans.Load(file, "")
	if err != nil {
		return nil, nil, nil, nil, usageErr("%v", err)
	}
	return l.Plan, l.Scenario, l.Config, l.Faults, nil
}
