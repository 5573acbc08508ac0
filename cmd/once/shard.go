package main

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/internal/progress"
	"github.com/oncesim/once/shard"
	"github.com/oncesim/once/sim"
)

// batchFlags are what matrix and sweep share to run on one machine, as one
// shard of many, or from the merged tallies of shards.
type batchFlags struct {
	out       string
	parsed    bool
	shardSpec string
	shard     batch.Shard
	sharded   bool
	// merged, when set by `once merge`, replaces running: the tallies of
	// every row, merged from the shard files.
	merged *shard.Merged
}

func (b *batchFlags) register(fl *pflag.FlagSet) {
	fl.StringVarP(&b.out, "out", "o", "", "write the output to FILE (atomically: all or nothing) instead of stdout; {shard} in the name is the shard's index")
	fl.Var(shard.SpecVar(&b.shardSpec), "shard", "run only part `i/n` (0-based, e.g. 2/8) of the seeds and write a shard file for once merge; the index may come from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID (--shard index/8)")
}

// registerExplore adds --out and --shard to explore.
func (b *batchFlags) registerExplore(fl *pflag.FlagSet) {
	fl.StringVarP(&b.out, "out", "o", "", "write the output to FILE (atomically: all or nothing) instead of stdout; {shard} in the name is the shard's index")
	fl.Var(shard.SpecVar(&b.shardSpec), "shard", "search only part `i/n` (0-based, e.g. 2/8) of the choice tree and write a shard file for once merge; the index may come from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID (--shard index/8)")
}

// parse reads --shard.
func (b *batchFlags) parse() error {
	if b.shardSpec == "" || b.parsed {
		return nil
	}
	s, err := shard.ParseSpec(b.shardSpec, nil)
	if err != nil {
		return usageErr("%v", err)
	}
	b.shard, b.sharded, b.parsed = s, true, true
	return nil
}

// canonicalArgs spells the command line that decides a batch's result
// (see shard.CanonicalArgs).
func canonicalArgs(cmd *cobra.Command, args []string) []string {
	return shard.CanonicalArgs(cmd.Flags(), args)
}

// tallies runs a batch's rows on this machine, or writes this shard's
// tallies and reports done, or takes the merged tallies of `once merge`.
// labels name the rows (a shard file carries them so merge can check it
// rebuilt the same rows).
func (b *batchFlags) tallies(command string, canon []string, files []shard.ScenarioFile, cfgs []*sim.Config, labels []string, seeds, workers int,
	opt batch.Options, stderr, stdout io.Writer) (tallies []batch.Tally, done bool, err error) {
	switch {
	case b.merged != nil:
		if err := b.merged.CheckTallies(labels, cfgs, seeds); err != nil {
			return nil, true, usageErr("%v", err)
		}
		return b.merged.Tallies, false, nil
	case b.sharded:
		h := shard.Header{Command: command, Args: canon, Index: b.shard.Index, Count: b.shard.Count, ScenarioFiles: files}
		return nil, true, shard.RunAndWrite(stdout, h, b.shard, cfgs, labels, seeds, workers, progress.Bar(stderr, command), opt)
	}
	if tallies, err = batch.RunStoppable(stderr, command, cfgs, seeds, workers, opt); err != nil { // a signal: the runs made, then exit 3
		return tallies, false, &exitError{code: exitIncomplete, err: err}
	}
	return tallies, false, nil
}
