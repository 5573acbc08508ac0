package main

import (
	"cmp"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/svg"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/shard"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sweep"
)

type sweepOptions struct {
	scenarioFlag
	sim     simFlags // --semantics, --ops, the fault flags, --set and the budgets
	vary    string
	seeds   int
	workers int
	format  string
	batch   batchFlags
	prof    profileFlags
	canon   []string // the arguments that decide the result (for shards)
}

func newSweepCmd() *cobra.Command { return newSweepCmdWith(&sweepOptions{}) }

// newSweepCmdWith builds the sweep command on o (merge fills o.batch with
// the shards' tallies first).
func newSweepCmdWith(o *sweepOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:  "sweep SCENARIO | -f FILE --vary name=from:to:step",
		Args: o.scenarioArgs,
		Example: `  once sweep double-billing --vary ttl=0:3s:250ms
  once sweep expired-dedup-ttl --vary ttl=15s:90s:15s --seeds 500
  once sweep double-billing --set store=memory --vary crash=0:0.3:0.05
  once sweep double-billing --semantics alo --vary ack-loss=0:0.6:0.1
  once sweep at-least-once-duplicate --vary crash=0:0.5:0.05 --seeds 500 --format json
  once sweep -f my-scenario.yaml --vary timeout=100ms:2s:100ms`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.canon = canonicalArgs(cmd, args)
			return o.prof.around(func() error {
				return o.batch.writing(cmd.OutOrStdout(), func(w io.Writer) error { return runSweep(o, args, w, cmd.ErrOrStderr()) })
			})
		},
	}
	o.registerFile(cmd)
	fl := cmd.Flags()
	f := &o.sim
	f.flags = fl
	fl.StringVar(&o.vary, "vary", "", "what to sweep: name=from:to:step, name a parameter (ttl, timeout…) or a fault setting ("+strings.Join(sim.FaultSettingNames(), ", ")+")")
	fl.StringVar(&f.semantics, "semantics", "", "one semantics: amo|alo|idem|txn (default: idem, or the scenario's first)")
	fl.IntVar(&o.seeds, "seeds", 200, "runs per point: seeds 1..N")
	fl.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parallel runs (default: GOMAXPROCS); the result does not depend on it")
	fl.StringVar(&o.format, "format", "text", "output: text|json|svg (svg: a chart of the rates per point, for slides)")
	fl.IntVar(&f.ops, "ops", 0, "number of operations (default: the scenario's)")
	f.registerFaults(fl)
	fl.StringArrayVar(&f.sets, "set", nil, "scenario parameter name=value (repeatable)")
	f.registerBudgets(fl)
	f.registerLiveness(fl)
	o.batch.register(fl)
	o.prof.register(fl)
	return cmd
}

func runSweep(o *sweepOptions, args []string, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, "text", "json", "svg"); err != nil {
		return err
	}
	if err := checkSeedsWorkers(o.seeds, o.workers); err != nil {
		return err
	}
	if o.vary == "" {
		return usageErr("--vary: say what to sweep, e.g. --vary ttl=0:5s:500ms or --vary loss=0:0.5:0.05")
	}
	sc, err := o.scenario(args)
	if err != nil {
		return err
	}
	f := &o.sim
	if !f.flags.Changed("semantics") { // the default is the scenario's: --help shows no fixed one
		f.semantics = sim.Idempotent.Alias()
		if !sc.Supports(sim.Idempotent) && len(sc.Semantics) > 0 {
			f.semantics = sc.Semantics[0].Alias()
		}
	}
	sem, err := runs.OneSemantics(f.semantics, sc, "sweep")
	if err != nil {
		return usageErr("%v", err)
	}
	spec, err := sweep.ParseVary(o.vary, sc)
	if err != nil {
		return usageErr("%v", err)
	}
	if sim.IsFaultSetting(spec.Name) && f.flags.Changed(spec.Name) {
		return usageErr("--vary %s and --%s: give one", spec.Name, spec.Name)
	}
	for _, s := range f.sets {
		if k, _, err := scenarios.ParseSet(s); err == nil && k == spec.Name {
			return usageErr("--vary %s and --set %s: give one", spec.Name, s)
		}
	}
	base, err := f.settingsFor(sc)
	if err != nil {
		return usageErr("%v", err)
	}
	base.Semantics = sem
	cfgs, sets, err := spec.Configs(sc, base)
	if err != nil {
		return usageErr("%v", err)
	}
	if err := o.batch.parse(); err != nil {
		return err
	}
	tallies, done, stopped := o.batch.tallies("sweep", o.canon, shard.ScenarioFiles(sc), cfgs, spec.Labels(), o.seeds, o.workers, batch.Options{}, stderr, stdout)
	if done || tallies == nil { // a stopped batch has its tallies: reported, then exit 3
		return stopped
	}
	doc, err := spec.Doc(sc.ShownAs(o.format), sem, o.seeds, base, sets, cfgs[0], tallies)
	if err != nil {
		return usageErr("%v", err)
	}
	switch o.format { // written, then exit 3 if a signal stopped it
	case "json":
		return cmp.Or(report.WriteJSON(stdout, doc), stopped)
	case "svg":
		return cmp.Or(svg.WriteSweep(stdout, doc), stopped)
	}
	return cmp.Or(report.WriteSweepText(colorprofile.NewWriter(stdout, os.Environ()), doc), stopped)
}
