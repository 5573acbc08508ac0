package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/shard"
)

func newMergeCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge SHARD-FILE|DIR…",
		Short: "Combine the shard files of a matrix, sweep or explore into what the unsharded command prints",
		Long: `merge reads the files written by ` + "`once matrix --shard i/n`" + `,
` + "`once sweep --shard i/n`" + ` or ` + "`once explore --shard i/n`" + ` (every shard of one
run, each once, in any order; a directory stands for its *.json files) and
prints what the same command without --shard prints. For matrix and sweep
that is byte for byte, because every tally is a count, a first seed or an
exact sum. For explore it is the same verdict and the same counterexample
(the first, in the search's order, of the shards' — the one the unsharded
search finds), with the counts summed over the shards: their visited sets
are not shared, so the sum can exceed the unsharded search's. The command's
arguments come from the shard files, and are data: the search's parameters
only (no file, output, profile or help), agreeing with what the shards
tallied; a scenario file travels as its text. Merge writes only to stdout
or its own --out.`,
		Example: `  for i in 0 1 2 3; do once matrix --seeds 100000 --shard $i/4 > part$i.json; done
  once merge part*.json
  once sweep expired-dedup-ttl --vary ttl=15s:90s:15s --seeds 50000 --shard index/16   # in a Job
  once merge shards/ --out ttl-sweep.txt
  for i in 0 1 2; do once explore double-billing --ops 4 --max-faults 5 --shard $i/3 --out part$i.json; done
  once merge part0.json part1.json part2.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b := batchFlags{out: out}
			return b.writing(cmd.OutOrStdout(), func(w io.Writer) error { return runMerge(args, w, cmd.ErrOrStderr()) })
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	return cmd
}

func runMerge(paths []string, stdout, stderr io.Writer) error {
	files, err := shard.Files(paths)
	if err != nil {
		return usageErr("%v", err)
	}
	doc, err := shard.Merge(files)
	if err != nil {
		return usageErr("%v", err)
	}
	// A shard is data: its arguments are checked as the search's
	// parameters before the command sees them, and its scenario files
	// are loaded from the text it carries.
	if err := checkShardArgs(doc); err != nil {
		return err
	}
	scs, err := shardScenarios(doc)
	if err != nil {
		return err
	}
	var sub *cobra.Command
	switch doc.Command {
	case "matrix":
		o := &matrixOptions{merged: scs}
		o.batch.merged = doc
		sub = newMatrixCmdWith(o)
	case "sweep":
		o := &sweepOptions{}
		o.batch.merged = doc
		o.scenarioFlag.merged = one(scs)
		sub = newSweepCmdWith(o)
	case "explore":
		o := &exploreOptions{merged: doc.Explore}
		o.scenarioFlag.merged = one(scs)
		sub = exploreCommand(o)
	default:
		return usageErr("%s: command %q: merge knows matrix, sweep and explore", doc.File, doc.Command)
	}
	sub.SetArgs(doc.Args)
	sub.SetOut(stdout)
	sub.SetErr(stderr)
	sub.SilenceErrors, sub.SilenceUsage = true, true
	sub.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return asUsage(err) })
	err = sub.Execute()
	var refused *shard.Error
	var ee *exitError
	if err != nil && errors.As(err, &ee) && ee.code == exitUsage && !errors.As(err, &refused) {
		// The command refused the shards' arguments (a value out of
		// range, an unknown scenario): name the shard they came from.
		return usageErr("%s: args: %w", doc.File, err)
	}
	return err
}

// newShardCommand is the command a shard is of, for checking its
// arguments: never run.
var newShardCommand = map[string]func() *cobra.Command{
	"matrix": newMatrixCmd, "sweep": newSweepCmd, "explore": newExploreCmd,
}

// checkShardArgs checks a shard's arguments as the command line of its
// command would be parsed, restricted to the search's parameters: every
// flag must be one (notParams: no file, output, profile or help), every
// positional argument a catalog scenario, and the whole spelled exactly
// as a shard records it. Every refusal is one line naming the shard and
// the field.
func checkShardArgs(doc *shard.Merged) error {
	newCmd, ok := newShardCommand[doc.Command]
	if !ok {
		return usageErr("%s: command %q: merge knows matrix, sweep and explore", doc.File, doc.Command)
	}
	bad := func(format string, a ...any) error {
		return usageErr("%s: args: %s", doc.File, fmt.Sprintf(format, a...))
	}
	probe := newCmd()
	probe.InitDefaultHelpFlag()
	fl := probe.Flags()
	if err := fl.Parse(doc.Args); err != nil {
		return bad("%v", err)
	}
	var refused error
	fl.Visit(func(f *pflag.Flag) {
		if refused != nil || searchParams[f.Name] {
			return
		}
		why, known := notParams[f.Name]
		if !known {
			why = "is not a parameter of the search"
		}
		refused = bad("--%s %s: a shard's arguments hold only the search's parameters", f.Name, why)
	})
	if refused != nil {
		return refused
	}
	pos := fl.Args()
	if len(pos) > 0 && len(doc.ScenarioFiles) > 0 {
		return bad("%q and a scenario file: a shard is of one or the other", pos[0])
	}
	for _, name := range pos {
		if _, err := scenarios.Lookup(name); err != nil {
			return bad("%v", err)
		}
	}
	if canon := canonicalArgs(probe, pos); !slices.Equal(canon, doc.Args) {
		return bad("%q is not how a shard records its arguments (that would be %q)", doc.Args, canon)
	}
	return nil
}

// shardScenarios loads the scenario files the shards carry, each checked
// as any scenario file is; errors name the shard and the file.
func shardScenarios(doc *shard.Merged) ([]*scenarios.Scenario, error) {
	if doc.Command != "matrix" && len(doc.ScenarioFiles) > 1 {
		return nil, usageErr("%s: scenario_files: %d, but %s takes one scenario", doc.File, len(doc.ScenarioFiles), doc.Command)
	}
	var out []*scenarios.Scenario
	for i, f := range doc.ScenarioFiles {
		sc, err := scenarios.Load(f.Name, []byte(f.Text))
		if err != nil {
			return nil, usageErr("%s: scenario_files[%d]: %w", doc.File, i, err)
		}
		out = append(out, sc)
	}
	return out, nil
}

// one is the only scenario of scs, or nil.
func one(scs []*scenarios.Scenario) *scenarios.Scenario {
	if len(scs) == 1 {
		return scs[0]
	}
	return nil
}
