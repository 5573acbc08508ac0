package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/explore"
	"github.com/oncesim/once/internal/progress"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/shard"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

type exploreOptions struct {
	explore.Bounds
	sets      []string
	maxDepth  int
	maxStates int
	maxMemory string
	workers   int
	format    string
	save      string
	timing    bool
	check     bool
	changed   func(string) bool
	// interrupt, when closed, stops the search (Ctrl-C): it ends as
	// INCOMPLETE with its statistics and the progress line is ended.
	interrupt <-chan struct{}
	// progress receives the redrawn progress line; nil draws none.
	progress      io.Writer
	progressEvery int
	scenarioFlag
	batch  batchFlags           // --out and --shard
	canon  []string             // the arguments that decide the result (for shards)
	merged *shard.ExploreMerged // set by merge: the shards' result replaces the search
}

func newExploreCmd() *cobra.Command { return exploreCommand(&exploreOptions{}) }

// interrupted reports whether a signal stopped the search.
func (o *exploreOptions) interrupted() bool {
	select {
	case <-o.interrupt: // a nil channel never is
		return true
	default:
		return false
	}
}

// exploreCommand builds the command around o; tests preset o.interrupt
// and o.progress, which otherwise come from the terminal.
func exploreCommand(o *exploreOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:  "explore SCENARIO | -f FILE",
		Args: o.scenarioArgs,
		Example: `  once explore double-billing --semantics idem --max-faults 3
  once explore double-billing --semantics alo
  once explore double-billing --semantics idem --set store=memory --faults crash,ack-loss
  once explore double-billing --semantics idem --ops 5 --max-faults 6 --faults loss,ack-loss
  once explore -f my-scenario.yaml --semantics idem
  once explore double-billing --ops 4 --max-faults 5 --shard 3/8 > part3.json   # then: once merge part*.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.interrupt == nil {
				ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
				defer stop()
				context.AfterFunc(ctx, stop) // a second Ctrl-C ends the process as usual
				o.interrupt = ctx.Done()
			}
			if stderr := cmd.ErrOrStderr(); o.progress == nil && progress.IsTerminal(stderr) {
				o.progress = stderr
			}
			o.canon = canonicalArgs(cmd, args)
			return o.batch.writing(cmd.OutOrStdout(), func(w io.Writer) error { return runExplore(o, args, w, cmd.ErrOrStderr()) })
		},
	}
	o.registerFile(cmd)
	fl := cmd.Flags()
	o.changed = fl.Changed
	// Flags whose default comes from the scenario are registered with an
	// empty default, so the help prints no default but the scenario's.
	fl.StringVar(&o.Semantics, "semantics", "", "one semantics: amo|alo|idem|txn (default: the strongest the scenario supports)")
	fl.IntVar(&o.Ops, "ops", 0, "number of operations (default: the scenario's explore.ops)")
	fl.IntVar(&o.MaxFaults, "max-faults", 0, fmt.Sprintf("faults per schedule, at most %d (default: the scenario's explore.max-faults)", search.MaxFaults))
	fl.IntVar(&o.MaxPreemptions, "max-preemptions", 0, fmt.Sprintf("interleavings per schedule: handlers descheduled between two store steps, at most %d (default: the scenario's explore.max-preemptions)", search.MaxPreemptions))
	fl.StringVar(&o.Faults, "faults", "", "fault kinds to enumerate: "+strings.Join(sim.FaultKindNames(), ", ")+" (comma list) or all (default: the scenario's explore.faults)")
	fl.StringArrayVar(&o.sets, "set", nil, "scenario parameter name=value (repeatable)")
	fl.IntVar(&o.maxDepth, "max-depth", 0, fmt.Sprintf("engine steps per schedule (default %d)", search.DefaultMaxDepth))
	fl.IntVar(&o.maxStates, "max-states", 0, fmt.Sprintf("distinct states before giving up (default %d)", search.DefaultMaxStates))
	fl.StringVar(&o.maxMemory, "max-memory", search.FormatBytes(search.DefaultMaxMemory), "memory the search may hold (visited states, stack, worlds), e.g. 512MiB or 2GiB; counted from sizes, so the cut is deterministic")
	fl.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "goroutines the search uses (default: GOMAXPROCS); the result does not depend on it")
	fl.StringVar(&o.Reduce, "reduce", "all", "state-space reduction: none, symmetry (one state per renaming of interchangeable operations) or all (partial-order reduction is not implemented: por is refused)")
	fl.StringVar(&o.format, "format", "text", "output: text|json")
	fl.StringVar(&o.save, "save", "", "write the counterexample's fault plan to FILE")
	fl.BoolVar(&o.timing, "timing", true, "report elapsed time and states/s (the only non-deterministic output)")
	fl.BoolVar(&o.check, "check", false, "exit 1 if a counterexample is found, 3 if the search is incomplete")
	o.batch.registerExplore(fl)
	fl.StringVar(&o.Property, "property", "", "what every schedule must keep: exactly-once (every operation has one effect), or promise (the semantics' own: ≤1, ≥1 or =1, plus the scenario's invariants) (default: the scenario's explore.property)")
	return cmd
}

func runExplore(o *exploreOptions, args []string, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, "text", "json"); err != nil {
		return err
	}
	if err := o.batch.parse(); err != nil {
		return err
	}
	if o.batch.sharded && o.save != "" {
		return usageErr("--save %s: a shard has no counterexample of its own to save; save the one `once merge` prints", o.save)
	}
	sc, err := o.scenario(args)
	if err != nil {
		return err
	}
	o.Defaults(sc, o.changed)
	sem, err := runs.OneSemantics(o.Semantics, sc, "explore")
	if err != nil {
		return usageErr("%v", err)
	}
	if err := o.Validate(o.workers, o.maxDepth, o.maxStates, o.changed); err != nil {
		return usageErr("%v", err)
	}
	maxMemory, asked, err := explore.MaxMemory(o.maxMemory, o.changed != nil && o.changed("max-memory"), stderr)
	if err != nil {
		return usageErr("%v", err)
	}
	replay := explore.Replay{Save: o.save, Property: o.Property, MaxDepth: o.maxDepth, MaxStates: o.maxStates, MaxMemory: asked}
	promise, set, kinds, err := o.Resolve(sc, sem, o.sets, o.changed)
	if err != nil {
		return usageErr("%v", err)
	}
	cfg, err := sc.Config(set)
	if err != nil {
		return usageErr("%v", err)
	}

	line := explore.NewProgressLine(o.progress)
	start := time.Now()
	opt := search.Options{
		MaxFaults: o.MaxFaults, MaxPreemptions: o.MaxPreemptions, Promise: promise, MaxDepth: o.maxDepth, MaxStates: o.maxStates, MaxMemory: maxMemory, Workers: o.workers,
		Stop: o.interrupt, Progress: line.Draw, ProgressEvery: cmp.Or(o.progressEvery, 50_000), Reduce: o.Reduction(),
	}
	if o.batch.sharded {
		opt.Shard = &search.Shard{Index: o.batch.shard.Index, Count: o.batch.shard.Count}
	}
	var res *search.Result
	bounds := shard.Search{Semantics: sem.Alias(), Ops: o.Ops, MaxFaults: o.MaxFaults, MaxPreemptions: o.MaxPreemptions, Faults: o.Faults, Property: o.Property,
		MaxDepth: cmp.Or(o.maxDepth, search.DefaultMaxDepth), MaxStates: cmp.Or(o.maxStates, search.DefaultMaxStates)}
	if o.merged != nil {
		res, o.timing = o.merged.Result, false // no search ran here: no time to report
		if err := o.merged.CheckSearch(bounds); err != nil {
			return usageErr("%v", err) // arguments that claim another search than the shards'
		}
		if err := o.merged.CheckCounterexample(cfg, promise, o.MaxFaults); err != nil {
			return usageErr("%v", err) // a tampered shard: refused before anything is reported
		}
	} else {
		restore := explore.LimitHeap(maxMemory)
		res, err = search.Explore(cfg, opt)
		restore()
	}
	line.End() // before any other output, interrupted or not
	if err != nil {
		return fmt.Errorf("explore: %w", err)
	}
	if o.batch.sharded {
		h := shard.Header{Command: "explore", Args: o.canon, Index: o.batch.shard.Index, Count: o.batch.shard.Count, ScenarioFiles: shard.ScenarioFiles(sc)}
		return explore.WriteShard(stdout, h, bounds, res)
	}
	elapsed := time.Since(start)
	var took *time.Duration
	if o.timing {
		took = &elapsed
	}
	replay.Faults, replay.MaxPreemptions = o.Faults, o.MaxPreemptions
	s := explore.Search{Scenario: sc, Settings: set, Property: o.Property, MaxFaults: o.MaxFaults, MaxPreemptions: o.MaxPreemptions, Kinds: kinds}
	doc, err := s.Document(cfg, promise, res, opt, replay, took, stderr)
	if err != nil {
		return err
	}
	if o.merged != nil {
		err = explore.WriteMerged(stdout, o.format, doc, o.merged.Shards)
	} else {
		err = explore.Write(stdout, o.format, doc)
	}
	if err != nil {
		return err
	}
	switch {
	case !res.Holds && o.check:
		return errViolation
	case !res.Complete && (o.check || o.interrupted()):
		return errIncomplete
	}
	return nil
}
