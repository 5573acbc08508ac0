package main

import "github.com/spf13/pflag"

// registerExplore adds --out and --shard to explore.
func (b *batchFlags) registerExplore(fl *pflag.FlagSet) {
	fl.StringVarP(&b.out, "out", "o", "", "write the output to FILE (atomically: all or nothing) instead of stdout; {shard} in the name is the shard's index")
	fl.StringVar(&b.shardSpec, "shard", "", "search only part `i/n` (0-based, e.g. 2/8) of the choice tree and write a shard file for once merge; the index may come from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID (--shard index/8)")
}
