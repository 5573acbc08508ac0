package main

import (
	"fmt"
	"github.com/oncesim/once/internal/usererr"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/plans"
	"github.com/oncesim/once/sim"
)

type runOptions struct {
	simFlags
	scenarioFlag
	format string
	check  bool
	swarm  bool
	save   string
}

func newRunCmd() *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:  "run SCENARIO | -f FILE",
		Args: o.scenarioArgs,
		Example: `  once run double-billing
  once run double-billing --semantics alo --seed 7 --format trace
  once run double-billing --semantics idem --set store=memory --crash 0.2 --check
  once run at-least-once-duplicate --format json
  once run double-billing --semantics alo --save plan.txt && once replay plan.txt
  once run -f my-scenario.yaml --semantics idem`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRun(o, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	o.register(cmd, "all")
	o.registerLiveness(cmd.Flags())
	o.registerFile(cmd)
	cmd.Flags().StringVar(&o.format, "format", "text", "output: text|json|trace|mermaid|svg|md (svg: one space-time diagram per semantics, side by side on one time axis; md: the table and one fenced Mermaid block per semantics)")
	cmd.Flags().BoolVar(&o.check, "check", false, "exit 1 if a promise is violated or the run does not settle after --faults-until, 3 if a promise could not be shown (unfinished)")
	cmd.Flags().BoolVar(&o.swarm, "swarm", false, "the seed draws its own fault profile, as in once matrix --swarm (each fault kind on or off, ×¼ to ×4): replays a swarm seed")
	cmd.Flags().StringVar(&o.save, "save", "", "write the fault plan of the run to FILE (one per semantics: FILE gets .ALIAS before its extension)")
	return cmd
}

func checkFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	want := strings.Join(allowed, "|")
	return asUsage(usererr.New("bad_format", map[string]any{"Format": format, "Want": want}, fmt.Sprintf("--format %q: want %s", format, want)))
}

func runRun(o *runOptions, args []string, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, runs.Formats...); err != nil {
		return err
	}
	sc, err := o.scenario(args)
	if err != nil {
		return err
	}
	sems, set, err := o.resolve(sc)
	if err != nil {
		return err
	}
	runs.Enforce()
	mem := runs.NewMemory(runs.MaxMemory)
	var rs []runs.Run
	for _, sem := range sems {
		set.Semantics = sem
		// The trace is kept for every format: the ledger lists each
		// operation's effect values (its transaction ids) from it.
		r, err := runs.Execute(sc, set, runs.Chooser(o.seed, o.swarm), runs.Options{Memory: mem})
		if err != nil {
			return usageErr("run %s: %v", sem, err)
		}
		r.Replay = runs.Command(sc, sem, o.seed, set) + runs.SwarmFlag(o.swarm)
		rs = append(rs, r)
	}
	if o.save != "" {
		if err := savePlanFiles(o.save, sc, o.seed, set, rs, stderr); err != nil {
			return err
		}
		for i := range rs {
			rs[i].Replay = "once replay " + plans.Path(o.save, rs[i].Outcome.Semantics, len(rs))
		}
	}
	if o.check {
		if err := runs.ShrinkFailures(rs, func() sim.Chooser { return sim.NewJitter(o.seed) }); err != nil {
			return err
		}
	}
	var headlines []report.Run
	if o.defaultRun() && (o.format == "text" || o.format == "json" || o.format == "md") {
		if headlines, err = runs.Headlines(sc, sems, o.seed, mem); err != nil {
			return err
		}
	}
	if o.swarm && o.format == "text" {
		io.WriteString(stdout, runs.SwarmLine(o.seed)+"\n")
	}
	if err := runs.Render(stdout, o.format, sc, o.seed, set, rs, headlines); err != nil {
		return err
	}
	if o.check {
		return checkExit(runs.Verdict(rs))
	}
	return nil
}

// defaultRun reports whether the run is the scenario's default: no --set,
// no fault, ops or budget flag (the semantics, seed and output may be
// chosen). Only a default run shows the headline rows: with a --set the
// user is already looking at a variant of their own.
func (o *runOptions) defaultRun() bool {
	quiet := true
	if o.flags != nil {
		o.flags.Visit(func(f *pflag.Flag) {
			switch f.Name {
			case "semantics", "seed", "format", "check", "save", "file":
			default:
				quiet = false
			}
		})
	}
	return quiet
}

// savePlanFiles writes the plan of every run, all or nothing.
func savePlanFiles(file string, sc *scenarios.Scenario, seed uint64, set scenarios.Settings, rs []runs.Run, stderr io.Writer) error {
	paths, err := runs.SavePlans(file, sc, seed, set, rs)
	if err != nil {
		return usageErr("--save %v", err)
	}
	for _, p := range paths {
		io.WriteString(stderr, "saved fault plan "+p+"\n")
	}
	return nil
}
