package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

type runOptions struct {
	simFlags
	scenarioFlag
	format string
	check  bool
	save   string
}

func newRunCmd() *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run SCENARIO | -f FILE",
		Short: "Run a scenario once per semantics on one seed and count effects per operation",
		Args:  o.scenarioArgs,
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
	o.registerFile(cmd)
	cmd.Flags().StringVar(&o.format, "format", "text", "output: text|json|trace|mermaid|svg|md (svg: one space-time diagram per semantics, side by side on one time axis; md: the table and one fenced Mermaid block per semantics)")
	cmd.Flags().BoolVar(&o.check, "check", false, "exit 1 if a promise is violated or could not be shown")
	cmd.Flags().StringVar(&o.save, "save", "", "write the fault plan of the run to FILE (one per semantics: FILE gets .ALIAS before its extension)")
	return cmd
}

func checkFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	return usageErr("--format %q: want %s", format, strings.Join(allowed, "|"))
}

// simulated is one finished run with what renderers need.
type simulated struct {
	cfg     *sim.Config
	outcome *sim.Outcome
	trace   *sim.Trace
	faults  []sim.Fault
	replay  string
	shrunk  *report.Counterexample // --check: the violation shrunk to minimal faults
}

func runRun(o *runOptions, args []string, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, "text", "json", "trace", "mermaid", "svg", "md"); err != nil {
		return err
	}
	sc, err := o.scenario(args)
	if err != nil {
		return err
	}
	sems, err := o.semanticsFor(sc)
	if err != nil {
		return usageErr("%v", err)
	}
	set, err := o.settingsFor(sc)
	if err != nil {
		return usageErr("%v", err)
	}
	var runs []simulated
	for _, sem := range sems {
		set.Semantics = sem
		cfg, err := sc.Config(set)
		if err != nil {
			return usageErr("%v", err)
		}
		rec := sim.NewRecording(sim.NewRandom(o.seed))
		// The trace is kept for every format: the ledger lists each
		// operation's effect values (its transaction ids) from it.
		trace := &sim.Trace{}
		w, err := sim.NewWorld(cfg, rec, trace)
		if err != nil {
			return fmt.Errorf("run %s: %w", sem, err)
		}
		runs = append(runs, simulated{cfg: cfg, outcome: w.Run(), trace: trace, faults: rec.Faults,
			replay: replayCommand(sc, sem, o.seed, set)})
	}
	if o.save != "" {
		if err := savePlans(o.save, sc, o.seed, set, runs, stderr); err != nil {
			return err
		}
		for i := range runs {
			runs[i].replay = "once replay " + planPath(o.save, runs[i].outcome.Semantics, len(runs))
		}
	}
	if o.check {
		if err := shrinkFailures(runs, o.seed); err != nil {
			return err
		}
	}
	var headlines []report.Run
	if o.defaultRun() && (o.format == "text" || o.format == "json" || o.format == "md") {
		if headlines, err = runHeadlines(sc, sems, o.seed); err != nil {
			return err
		}
	}
	if err := render(stdout, o.format, sc, o.seed, set, runs, headlines); err != nil {
		return err
	}
	return checkRuns(o.check, runs)
}

// shrinkFailures shrinks the faults of every violated run to a minimal
// plan, with its cause, the way explore does for its counterexamples.
func shrinkFailures(runs []simulated, seed uint64) error {
	for i := range runs {
		r := &runs[i]
		if r.outcome.Status != sim.Violated {
			continue
		}
		cex, _, err := shrinkViolation(r.cfg, r.outcome.Semantics.Promise(), r.faults, func() sim.Chooser { return sim.NewJitter(seed) })
		if err != nil {
			return err
		}
		cex.Replay = r.replay
		r.shrunk = cex
	}
	return nil
}

func checkRuns(check bool, runs []simulated) error {
	if !check {
		return nil
	}
	for _, r := range runs {
		if r.outcome.Status != sim.Held {
			return errViolation
		}
	}
	return nil
}

func render(stdout io.Writer, format string, sc *scenarios.Scenario, seed uint64, set scenarios.Settings, runs []simulated, headlines []report.Run) error {
	vals, _ := scenarios.ResolveParams(sc.Params, set.Params)
	var rr []report.Run
	for _, r := range runs {
		run := report.Run{Outcome: r.outcome, Replay: r.replay, Shrunk: r.shrunk, Sinks: report.SinkNames(r.cfg.Observe)}
		for _, f := range r.faults {
			run.FaultPlan = append(run.FaultPlan, r.cfg.Topology.FaultLine(f))
		}
		if r.trace != nil {
			run.Effects = report.EffectValues(r.cfg.Observe, r.trace.Events)
		}
		rr = append(rr, run)
	}
	doc := report.NewRunDoc(sc.Name, seed, set, vals.Sorted(), sc.Outcome, rr)
	doc.AddHeadlines(sc.Outcome, headlines)
	switch format {
	case "json":
		return report.WriteJSON(stdout, doc)
	case "trace":
		for i, r := range runs {
			if len(runs) > 1 {
				if i > 0 {
					fmt.Fprintln(stdout)
				}
				fmt.Fprintf(stdout, "# %s\n", r.outcome.Semantics)
			}
			if err := report.WriteTimeline(stdout, r.cfg.Topology, r.trace.Events); err != nil {
				return err
			}
		}
		return nil
	case "mermaid":
		for i, r := range runs {
			if len(runs) > 1 {
				if i > 0 {
					fmt.Fprintln(stdout)
				}
				fmt.Fprintf(stdout, "%%%% %s\n", r.outcome.Semantics)
			}
			if err := report.WriteMermaidOutcome(stdout, r.cfg.Topology, r.trace.Events, focusOps(r.outcome), report.FramingLine(r.outcome, sc.Outcome, report.SinkNames(r.cfg.Observe))); err != nil {
				return err
			}
		}
		return nil
	case "svg":
		return writeSVG(stdout, sc, seed, runs)
	case "md":
		diagrams := make([]string, len(runs))
		for i, r := range runs {
			var m strings.Builder
			if err := report.WriteMermaidOutcome(&m, r.cfg.Topology, r.trace.Events, focusOps(r.outcome), report.FramingLine(r.outcome, sc.Outcome, report.SinkNames(r.cfg.Observe))); err != nil {
				return err
			}
			diagrams[i] = m.String()
		}
		return report.WriteRunMarkdown(stdout, doc, sc.Summary, diagrams)
	}
	return report.WriteRunText(colorprofile.NewWriter(stdout, os.Environ()), doc, lessonText(sc, "summary", sc.Summary))
}

// planPath is where the plan of one semantics goes: FILE itself for a
// single run, FILE with ".ALIAS" before its extension for several.
func planPath(file string, sem sim.Semantics, n int) string {
	if n == 1 {
		return file
	}
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + "." + sem.Alias() + ext
}

// savePlans writes every plan to a temporary file first and renames them
// into place only when all are written, so a failure leaves nothing
// half-written.
func savePlans(file string, sc *scenarios.Scenario, seed uint64, set scenarios.Settings, runs []simulated, stderr io.Writer) error {
	type pending struct{ tmp, dst string }
	var scenarioFile string
	if !fromCatalog(sc) {
		ref, err := planFileRef(sc.File, file)
		if err != nil {
			return usageErr("--save %s: %v", file, err)
		}
		scenarioFile = ref
	}
	var done []pending
	cleanup := func() {
		for _, p := range done {
			os.Remove(p.tmp)
		}
	}
	for _, r := range runs {
		dst := planPath(file, r.outcome.Semantics, len(runs))
		tmp, err := os.CreateTemp(filepath.Dir(dst), ".once-plan-*")
		if err != nil {
			cleanup()
			return usageErr("--save %s: cannot create a file in %s: %v", dst, filepath.Dir(dst), unwrapPath(err))
		}
		plan := &scenarios.Plan{Scenario: sc.Name, File: scenarioFile, Semantics: r.outcome.Semantics, Ops: set.Ops, Seed: seed, Jitter: true,
			Faults: set.Faults, Params: set.Params, MaxEvents: set.MaxEvents, MaxTime: set.MaxTime}
		werr := scenarios.WritePlan(tmp, plan, r.cfg.Topology, r.faults)
		cerr := tmp.Close()
		done = append(done, pending{tmp.Name(), dst})
		if werr != nil || cerr != nil {
			cleanup()
			return usageErr("--save %s: %v", dst, errorsJoin(werr, cerr))
		}
	}
	for _, p := range done {
		if err := os.Rename(p.tmp, p.dst); err != nil {
			cleanup()
			return usageErr("--save %s: %v", p.dst, err)
		}
		fmt.Fprintf(stderr, "saved fault plan %s\n", p.dst)
	}
	return nil
}

func errorsJoin(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func dirOf(path string) string { return filepath.Dir(path) }
