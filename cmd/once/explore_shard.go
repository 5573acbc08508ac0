package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/shard"
	"github.com/oncesim/once/sim"
)

// exploreMerged is what merge hands the explore command instead of a
// search (see shard.ExploreMerged).
type exploreMerged = shard.ExploreMerged

// mergedCountsNote says what the counts of a merged search are.
const mergedCountsNote = shard.CountsNote

// registerExplore adds --out and --shard to explore.
func (b *batchFlags) registerExplore(fl *pflag.FlagSet) {
	fl.StringVarP(&b.out, "out", "o", "", "write the output to FILE (atomically: all or nothing) instead of stdout; {shard} in the name is the shard's index")
	fl.StringVar(&b.shardSpec, "shard", "", "search only part i of n (0-based, e.g. 2/8) of the choice tree and write a shard file for `once merge`; the index may come from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID (--shard index/8)")
}

// writeExploreShard writes the shard file of res.
func writeExploreShard(w io.Writer, o *exploreOptions, res *sim.ExploreResult) error {
	doc := &shard.ExploreDoc{
		Header: shard.Header{Command: "explore", Args: o.canon, Index: o.batch.shard.Index, Count: o.batch.shard.Count},
		Holds:  res.Holds, Complete: res.Complete, Cut: res.Cut, Choices: append([]int{}, res.Choices...),
		States: res.States, Schedules: res.Schedules, Transitions: res.Transitions, Revisits: res.Revisits,
		MaxDepth: res.MaxDepth, MemoryBytes: res.Memory,
	}
	data, err := shard.Encode(doc)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// writeMergedExplore writes the report of a merged search: the report of
// the unsharded command (the same verdict and counterexample, in the same
// words) and what its counts mean.
func writeMergedExplore(w io.Writer, format string, doc report.ExploreDoc, shards int) error {
	if format == "json" {
		return report.WriteJSON(w, struct {
			report.ExploreDoc
			Shards int    `json:"shards"`
			Counts string `json:"counts"`
		}{doc, shards, mergedCountsNote})
	}
	if err := writeExploreText(w, doc); err != nil {
		return err
	}
	plural := "s"
	if shards == 1 {
		plural = ""
	}
	_, err := fmt.Fprintf(w, "merged from %d shard%s: %s\n", shards, plural, mergedCountsNote)
	return err
}
