package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/sim"
)

// exploreShardDoc is the shard file of `once explore --shard i/n`: the
// verdict of one part of the choice tree (see sim/explore_shard.go), its
// first counterexample as the choices that reach it — which are also its
// position in the canonical order, so merge can pick the first of all
// shards — and its counts.
type exploreShardDoc struct {
	Schema      string   `json:"schema"`
	Command     string   `json:"command"` // explore
	Args        []string `json:"args"`    // canonicalArgs
	Index       int      `json:"index"`
	Count       int      `json:"count"`
	Holds       bool     `json:"holds"`
	Complete    bool     `json:"complete"`
	Cut         string   `json:"cut,omitempty"`
	Choices     []int    `json:"choices"` // the counterexample's path; [] when it holds
	States      int      `json:"states"`
	Schedules   int      `json:"schedules"`
	Transitions int      `json:"transitions"`
	Revisits    int      `json:"revisits"`
	MaxDepth    int      `json:"max_depth"`
	MemoryBytes int64    `json:"memory_bytes"`
}

// exploreMerged is what merge hands the explore command instead of a
// search: the shards' verdict and counts, and how many shards there were.
type exploreMerged struct {
	res    *sim.ExploreResult
	shards int
}

// registerExplore adds --out and --shard to explore.
func (b *batchFlags) registerExplore(fl *pflag.FlagSet) {
	fl.StringVarP(&b.out, "out", "o", "", "write the output to FILE (atomically: all or nothing) instead of stdout; {shard} in the name is the shard's index")
	fl.StringVar(&b.shardSpec, "shard", "", "search only part i of n (0-based, e.g. 2/8) of the choice tree and write a shard file for `once merge`; the index may come from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID (--shard index/8)")
}

// writeExploreShard writes the shard file of res.
func writeExploreShard(w io.Writer, o *exploreOptions, res *sim.ExploreResult) error {
	doc := exploreShardDoc{
		Schema: ShardSchema, Command: "explore", Args: o.canon, Index: o.batch.shard.Index, Count: o.batch.shard.Count,
		Holds: res.Holds, Complete: res.Complete, Cut: res.Cut, Choices: append([]int{}, res.Choices...),
		States: res.States, Schedules: res.Schedules, Transitions: res.Transitions, Revisits: res.Revisits,
		MaxDepth: res.MaxDepth, MemoryBytes: res.Memory,
	}
	if doc.Args == nil {
		doc.Args = []string{}
	}
	return report.WriteJSON(w, doc)
}

// isExploreShard reports whether a shard file is explore's (the command
// field says which fields follow).
func isExploreShard(data []byte) bool {
	var head struct {
		Command string `json:"command"`
	}
	return json.Unmarshal(data, &head) == nil && head.Command == "explore"
}

// decodeExploreShard reads an explore shard file into the common shard
// document merge checks.
func decodeExploreShard(path string, data []byte) (*shardDoc, error) {
	x := &exploreShardDoc{}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(x); err != nil {
		return nil, usageErr("%s: not an explore shard file: %v", path, err)
	}
	if x.Holds && len(x.Choices) > 0 {
		return nil, usageErr("%s: holds, yet has a counterexample", path)
	}
	return &shardDoc{Schema: x.Schema, Command: x.Command, Args: x.Args, Index: x.Index, Count: x.Count, file: path, explore: x}, nil
}

// mergeExploreShards combines the shards of one search, sorted by index:
// it is violated iff a shard found a violation, and the counterexample is
// the shards' first in canonical order, which is the unsharded search's;
// it is complete iff every shard is. The counts are summed, the depth and
// memory are the largest shard's.
func mergeExploreShards(docs []*shardDoc) *exploreMerged {
	res := &sim.ExploreResult{Holds: true, Complete: true}
	var cuts []string
	for _, d := range docs {
		x := d.explore
		res.States += x.States
		res.Schedules += x.Schedules
		res.Transitions += x.Transitions
		res.Revisits += x.Revisits
		res.MaxDepth = max(res.MaxDepth, x.MaxDepth)
		res.Memory = max(res.Memory, x.MemoryBytes)
		if !x.Complete {
			res.Complete = false
			cuts = append(cuts, fmt.Sprintf("shard %d/%d: %s", d.Index, d.Count, x.Cut))
		}
		if !x.Holds && (res.Holds || sim.CompareChoices(x.Choices, res.Choices) < 0) {
			res.Holds, res.Choices = false, x.Choices
		}
	}
	if len(cuts) > 0 {
		res.Cut = cuts[0]
		if len(cuts) > 1 {
			res.Cut += fmt.Sprintf(" (and %d more shards cut)", len(cuts)-1)
		}
	}
	return &exploreMerged{res: res, shards: len(docs)}
}

// mergedCountsNote says what the counts of a merged search are.
const mergedCountsNote = "states, schedules, transitions and revisits are summed over the shards, whose visited sets are not shared, so they can exceed an unsharded search's; depth and memory are the largest shard's"

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
