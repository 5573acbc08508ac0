package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/progress"
	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/plans"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// labOptions are the flags of `once lab`.
type labOptions struct {
	simFlags
	scenarioFlag
	nodes       []string
	format      string
	check       bool
	save        string
	replay      string
	explore     bool
	maxFaults   int
	faults      string
	schedules   int
	stepTimeout time.Duration
	logs        bool
	twice       bool
	replicas    int
	preemptions int
	workers     int
	maxMemory   string
	noReset     bool
	progress    io.Writer
	onSpawn     func(pid int)   // tests: every process started
	exit        func(code int)  // tests: lab.OnInterrupt's exit
	stop        <-chan struct{} // closed by a signal
}

func newLabCmd() *cobra.Command { return labCommand(&labOptions{}) }

func labCommand(o *labOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:  "lab SCENARIO --node NAME=COMMAND",
		Args: o.scenarioArgsOrReplay,
		Example: `  once lab double-billing --node service="python3 examples/lab/python/naive_service.py" --check
  once lab double-billing --node service="python3 examples/lab/python/idempotent_service.py" --explore --max-faults 3
  once lab at-least-once-duplicate --node consumer="python3 examples/lab/python/idempotent_consumer.py" --format mermaid
  once lab double-billing --node service=./mysvc --save plan.txt && once lab --node service=./mysvc --replay plan.txt`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var stop func()
			o.stop, stop = lab.OnInterrupt(cmd.ErrOrStderr(), o.exit)
			defer stop()
			if stderr := cmd.ErrOrStderr(); o.progress == nil && progress.IsTerminal(stderr) {
				o.progress = stderr
			}
			err := runLab(o, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
			lab.WriteStderrTail(cmd.ErrOrStderr(), err, o.logs)
			return err
		},
	}
	o.register(cmd, "idem")
	o.registerFile(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&o.nodes, "node", nil, `NAME=COMMAND: node NAME is played by COMMAND (split on spaces, no shell; repeatable)`)
	fl.StringVar(&o.format, "format", "text", "output: text|json|trace|mermaid|svg")
	fl.BoolVar(&o.check, "check", false, "exit 1 if the promise is violated (with a shrunk plan); also runs the schedule twice to check the nodes are deterministic")
	fl.StringVar(&o.save, "save", "", "write the fault plan of the run to FILE (replay it with --replay FILE)")
	fl.StringVar(&o.replay, "replay", "", "re-run a saved fault plan FILE with your nodes (the plan names the scenario)")
	fl.BoolVar(&o.explore, "explore", false, "search every schedule with at most --max-faults faults (each from the start)")
	fl.IntVar(&o.maxFaults, "max-faults", 0, "faults per schedule for --explore (default: the scenario's explore.max-faults)")
	fl.StringVar(&o.faults, "faults", "", "fault kinds for --explore: a comma list of "+strings.Join(sim.FaultKindNames(), ", ")+" (default: the scenario's explore.faults)")
	fl.IntVar(&o.schedules, "max-schedules", lab.DefaultMaxSchedules, "schedules --explore may run before it gives up")
	fl.DurationVar(&o.stepTimeout, "step-timeout", lab.DefaultStepTimeout, "wall-clock time a node may take to answer one event")
	fl.BoolVar(&o.logs, "logs", false, "show each node incarnation's stderr (on stderr)")
	fl.IntVar(&o.replicas, "replicas", 0, "processes that play each --node, sharing its stores, behind one address (default: 2 where the scenario's lesson is a race, such as concurrent-same-key, else 1)")
	fl.IntVar(&o.preemptions, "max-preemptions", 0, fmt.Sprintf("preemptions per schedule for --explore: a replica held at a store answer while others run, at most %d (default: the scenario's explore.max-preemptions)", search.MaxPreemptions))
	fl.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "schedules --explore runs side by side, each with its own processes (default: GOMAXPROCS); the result does not depend on it")
	fl.StringVar(&o.maxMemory, "max-memory", search.FormatBytes(search.DefaultMaxMemory), "memory the lab may hold (every run's transcript; with --explore the queue of schedules too, each schedule 1/128 of it), e.g. 512MiB or 2GiB; counted from sizes, so the cut is deterministic")
	fl.BoolVar(&o.noReset, "no-reset", false, "never reuse a process that declares reset: --explore starts fresh processes for every schedule and restart (compare the time; the report is the same)")
	fl.BoolVar(&o.twice, "twice", false, "hand every delivery to your nodes twice in a row: a handler that is not idempotent shows as a duplicated effect")
	return cmd
}

// scenarioArgsOrReplay wants a scenario, except with --replay (the plan
// names it).
func (o *labOptions) scenarioArgsOrReplay(cmd *cobra.Command, args []string) error {
	if o.replay != "" {
		if len(args) > 0 || o.file != "" {
			return usageErr("--replay %s: the plan names the scenario; give no SCENARIO or -f", o.replay)
		}
		return nil
	}
	return o.scenarioArgs(cmd, args)
}

// labError turns a lab node's failure into one line and exit 2. With
// --logs, the tail of the failing incarnation's stderr comes first (it
// was already shown, incarnation by incarnation, when the node ended).
func labError(err error) error {
	var le *lab.Error
	var ne *lab.NondeterminismError
	if errors.As(err, &le) || errors.As(err, &ne) {
		return &exitError{code: exitUsage, err: err}
	}
	return asUsage(err)
}

func (o *labOptions) buildLab(sc *scenarios.Scenario, set scenarios.Settings, seed uint64, stderr io.Writer) (*lab.Lab, error) {
	l := &lab.Lab{Scenario: sc, Settings: set, Seed: seed, Commands: map[string][]string{}, StepTimeout: o.stepTimeout, OnSpawn: o.onSpawn, Twice: o.twice, Replicas: o.replicas, NoReset: o.noReset}
	if err := l.SetMaxMemory(o.maxMemory); err != nil {
		return nil, usageErr("--max-memory %q: %v", o.maxMemory, err)
	}
	if o.stepTimeout <= 0 {
		return nil, usageErr("--step-timeout %s: want a positive duration, e.g. 5s", o.stepTimeout)
	}
	if o.replicas < 0 || o.replicas > lab.MaxReplicas || o.replicas == 0 && o.flags.Changed("replicas") { // 0 given is not "the default"
		return nil, usageErr("--replicas %d: want a count in [1, %d]", o.replicas, lab.MaxReplicas)
	}
	if seed > 1<<53-1 {
		return nil, usageErr("--seed %d: a lab node reads the seed as a JSON number: want at most 2^53-1", seed)
	}
	if set.Faults.Probability[sim.FaultPreempt] > 0 && !l.Preemptible() && o.flags.Changed(sim.FaultPreempt.String()) {
		return nil, usageErr("--%s: nothing to preempt: your node runs as one process, and a process answers one event at a time (give --replicas 2)", sim.FaultPreempt)
	}
	if o.logs {
		l.Logs = stderr
	}
	for _, spec := range o.nodes {
		name, argv, err := lab.ParseCommand(spec)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		if _, dup := l.Commands[name]; dup {
			return nil, usageErr("--node %s: given twice", name)
		}
		l.Commands[name] = argv
	}
	if err := l.Validate(); err != nil {
		return nil, usageErr("%v", err)
	}
	return l, nil
}

// command is what a lab command line repeats of the flags.
func (o *labOptions) command() lab.Command {
	return lab.Command{Nodes: o.nodes, Twice: o.twice, Replicas: o.replicas}
}

func runLab(o *labOptions, args []string, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, "text", "json", "trace", "mermaid", "svg"); err != nil {
		return err
	}
	for _, name := range []string{"workers", "max-faults", "faults", "max-schedules", "max-preemptions"} {
		if !o.explore && o.flags.Changed(name) { // refused, not ignored
			return usageErr("--%s: only --explore runs schedules side by side and searches them (give --explore, or fault probabilities such as --crash 0.2)", name)
		}
	}
	if o.replay != "" {
		return runLabReplay(o, stdout, stderr)
	}
	sc, err := o.scenario(args)
	if err != nil {
		return err
	}
	if o.explore {
		return runLabExplore(o, sc, stdout, stderr)
	}
	sems, set, err := o.resolve(sc)
	if err != nil {
		return err
	}
	l, err := o.buildLab(sc, set, o.seed, stderr)
	if err != nil {
		return err
	}
	rs, judges, err := l.RunAll(sems, o.seed, o.check, func(sem sim.Semantics) string { return o.command().Line(sc, sem, o.seed, set) })
	if err != nil {
		return labError(err)
	}
	if o.save != "" {
		if err := savePlanFiles(o.save, sc, o.seed, set, rs, stderr); err != nil {
			return err
		}
		for i := range rs {
			rs[i].Replay = o.command().ReplayLine(plans.Path(o.save, rs[i].Outcome.Semantics, len(rs)))
		}
	}
	if o.check {
		if err := l.ShrinkViolations(rs, judges, o.seed); err != nil {
			return labError(err)
		}
	}
	if o.format == "text" {
		lab.WriteJudges(stdout, sems, judges)
	}
	return renderChecked(stdout, o.format, o.check, sc, o.seed, set, rs)
}

func runLabReplay(o *labOptions, stdout, stderr io.Writer) error {
	loaded, l, err := lab.LoadPlan(o.replay, func(sc *scenarios.Scenario, set scenarios.Settings, seed uint64) (*lab.Lab, error) {
		return o.buildLab(sc, set, seed, stderr)
	})
	if err != nil {
		return asUsage(err)
	}
	plan, sc, set, faults := loaded.Plan, loaded.Scenario, loaded.Settings, loaded.Faults
	var jitter func() sim.Chooser
	if plan.Jitter {
		jitter = func() sim.Chooser { return sim.NewJitter(plan.Seed) }
	}
	rs, judge, hit, err := l.ReplayPlan(plan.Semantics, faults, jitter, o.check, o.command().ReplayLine(o.replay))
	if err != nil {
		return labError(err)
	}
	fmt.Fprintf(stderr, "replayed %s: %d of %d planned fault(s) hit\n", o.replay, hit, len(faults))
	if o.format == "text" {
		lab.WriteJudges(stdout, []sim.Semantics{plan.Semantics}, map[sim.Semantics]lab.Judge{plan.Semantics: judge})
	}
	return renderChecked(stdout, o.format, o.check, sc, plan.Seed, set, rs)
}
