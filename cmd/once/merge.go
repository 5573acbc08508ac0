package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/shard"
)

func newMergeCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use: "merge SHARD-FILE|DIR…",
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
	scs, err := doc.Scenarios() // a scenario file travels as its text
	if err != nil {
		return usageErr("%v", err)
	}
	var sub, probe *cobra.Command // probe parses the shards' arguments, never runs
	switch doc.Command {
	case "matrix":
		o := &matrixOptions{merged: scs}
		o.batch.merged = doc
		sub, probe = newMatrixCmdWith(o), newMatrixCmd()
	case "sweep":
		o := &sweepOptions{scenarioFlag: scenarioFlag{merged: scs}}
		o.batch.merged = doc
		sub, probe = newSweepCmdWith(o), newSweepCmd()
	case "explore":
		sub, probe = exploreCommand(&exploreOptions{merged: doc.Explore, scenarioFlag: scenarioFlag{merged: scs}}), newExploreCmd()
	default: // shard.Read refuses any other
		return usageErr("%s: command %q: merge knows matrix, sweep and explore", doc.File, doc.Command)
	}
	probe.InitDefaultHelpFlag()
	if err := doc.CheckArgs(probe.Flags()); err != nil {
		return usageErr("%v", err)
	}
	sub.SetArgs(doc.Args)
	sub.SetOut(stdout)
	sub.SetErr(stderr)
	sub.SilenceErrors, sub.SilenceUsage = true, true
	sub.SetFlagErrorFunc(flagError)
	err = sub.Execute()
	var ee *exitError
	var refused *shard.Error
	if errors.As(err, &ee) && ee.code == exitUsage && !errors.As(err, &refused) {
		return usageErr("%s: args: %w", doc.File, err) // a value the command refused: name the shard
	}
	return err
}
