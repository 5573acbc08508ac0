package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/batch"
	"github.com/oncesim/once/sim"
)

// ShardSchema names the format of a shard file (`matrix --shard`,
// `sweep --shard`), which `once merge` reads.
const ShardSchema = "once.shard/v1"

// maxShards bounds --shard's count.
const maxShards = 100_000

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
	merged *shardDoc
}

func (b *batchFlags) register(fl *pflag.FlagSet) {
	fl.StringVarP(&b.out, "out", "o", "", "write the output to FILE (atomically: all or nothing) instead of stdout; {shard} in the name is the shard's index")
	fl.StringVar(&b.shardSpec, "shard", "", "run only part i of n (0-based, e.g. 2/8) of the seeds and write a shard file for `once merge`; the index may come from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID (--shard index/8)")
}

// parse reads --shard: "i/n", or "index/n" to take i from the environment
// of a Kubernetes Indexed Job or a Slurm array.
func (b *batchFlags) parse() error {
	if b.shardSpec == "" || b.parsed {
		return nil
	}
	bad := func(why string) error { return usageErr("--shard %s: %s", b.shardSpec, why) }
	is, ns, ok := strings.Cut(b.shardSpec, "/")
	if !ok {
		return bad("want i/n, e.g. 0/4")
	}
	n, err := strconv.Atoi(strings.TrimSpace(ns))
	if err != nil || n < 1 || n > maxShards {
		return bad(fmt.Sprintf("the count %q is not a number in 1..%d", ns, maxShards))
	}
	is = strings.TrimSpace(is)
	if is == "index" {
		var from string
		for _, env := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
			if v, ok := os.LookupEnv(env); ok {
				is, from = v, env
				break
			}
		}
		if from == "" {
			return bad("index comes from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID, and neither is set")
		}
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return bad(fmt.Sprintf("the index %q is not a number in 0..%d", is, n-1))
	}
	b.shard, b.sharded, b.parsed = batch.Shard{Index: i, Count: n}, true, true
	return nil
}

// canonicalArgs spells the command line that decides a batch's result:
// the positional arguments and every flag the user set, but not the ones
// that only say how to run it (--shard, --workers, profiles). Shards of one
// batch carry the same canonical arguments; merge checks it and runs the
// command again with them.
func canonicalArgs(cmd *cobra.Command, args []string) []string {
	out := append([]string{}, args...)
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch f.Name {
		case "shard", "workers", "cpuprofile", "memprofile", "out":
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				out = append(out, "--"+f.Name+"="+v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	return out
}

// shardDoc is one shard file.
type shardDoc struct {
	Schema  string        `json:"schema"`
	Command string        `json:"command"` // matrix or sweep
	Args    []string      `json:"args"`    // canonicalArgs
	Index   int           `json:"index"`
	Count   int           `json:"count"`
	Seeds   int           `json:"seeds"` // of the whole batch
	From    uint64        `json:"from"`  // this shard's seeds
	To      uint64        `json:"to"`
	Rows    []shardRowDoc `json:"rows"`
	file    string        // where it was read from, for errors
	tallies []batch.Tally // the rows merged over every shard
	// explore is an explore shard's own document (its file has its own
	// fields), and in the merged document the merged search.
	explore  *exploreShardDoc
	searched *exploreMerged
}

// shardRowDoc is the tally of one row (a matrix expectation, a sweep
// point) over the shard's seeds: counts, first seeds and exact metric sums.
type shardRowDoc struct {
	Label           string               `json:"label"`
	Runs            int                  `json:"runs"`
	Finished        int                  `json:"finished"`
	WithLost        int                  `json:"runs_with_lost"`
	WithRefused     int                  `json:"runs_with_refused"`
	WithDup         int                  `json:"runs_with_duplicated"`
	InvViolated     int                  `json:"runs_with_violation"`
	Ops             int                  `json:"ops"`
	Effects         int                  `json:"effects"`
	Metrics         []scenarios.ExactSum `json:"metric_sums"`
	FirstLost       uint64               `json:"first_lost,omitempty"`
	FirstDup        uint64               `json:"first_duplicated,omitempty"`
	FirstViolation  uint64               `json:"first_violation,omitempty"`
	FirstUnfinished uint64               `json:"first_unfinished,omitempty"`
}

func rowDoc(label string, t *batch.Tally) shardRowDoc {
	return shardRowDoc{
		Label: label, Runs: t.Runs, Finished: t.Finished, WithLost: t.WithLost, WithRefused: t.WithRefused, WithDup: t.WithDup,
		InvViolated: t.InvViolated, Ops: t.Ops, Effects: t.Effects, Metrics: append([]scenarios.ExactSum{}, t.Metrics...),
		FirstLost: t.FirstLost, FirstDup: t.FirstDup, FirstViolation: t.FirstViolation, FirstUnfinished: t.FirstUnfinished,
	}
}

func (r *shardRowDoc) tally() batch.Tally {
	return batch.Tally{
		Tally: scenarios.Tally{Runs: r.Runs, Finished: r.Finished, WithLost: r.WithLost, WithRefused: r.WithRefused, WithDup: r.WithDup,
			InvViolated: r.InvViolated, Ops: r.Ops, Effects: r.Effects, Metrics: r.Metrics},
		FirstLost: r.FirstLost, FirstDup: r.FirstDup, FirstViolation: r.FirstViolation, FirstUnfinished: r.FirstUnfinished,
	}
}

// tallies runs a batch's rows on this machine, or writes this shard's
// tallies and reports done, or takes the merged tallies of `once merge`.
// labels name the rows (a shard file carries them so merge can check it
// rebuilt the same rows).
func (b *batchFlags) tallies(command string, canon []string, cfgs []*sim.Config, labels []string, seeds, workers int,
	progress batch.Progress, stdout io.Writer) (tallies []batch.Tally, done bool, err error) {
	switch {
	case b.merged != nil:
		m := b.merged
		if len(m.Rows) != len(labels) {
			return nil, true, usageErr("merge: the shards have %d rows, the command builds %d: were they made by another version of once?", len(m.Rows), len(labels))
		}
		for i, r := range m.Rows {
			if r.Label != labels[i] {
				return nil, true, usageErr("merge: row %d is %q in the shards, %q here: were they made by another version of once?", i+1, r.Label, labels[i])
			}
		}
		return m.tallies, false, nil
	case b.sharded:
		r := b.shard.Seeds(seeds)
		ts := batch.RunSeeds(cfgs, r, workers, progress)
		doc := shardDoc{Schema: ShardSchema, Command: command, Args: canon, Index: b.shard.Index, Count: b.shard.Count,
			Seeds: seeds, From: r.Lo, To: r.Hi, Rows: make([]shardRowDoc, len(cfgs))}
		for i := range ts {
			doc.Rows[i] = rowDoc(labels[i], &ts[i])
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return nil, true, enc.Encode(doc)
	}
	return batch.Run(cfgs, seeds, workers, progress), false, nil
}

// mergeShards reads shard files and checks that they are the shards of
// one batch, each exactly once; it returns them merged into one document
// whose tallies are the whole batch's.
func mergeShards(args []string) (*shardDoc, error) {
	paths, err := shardFiles(args)
	if err != nil {
		return nil, err
	}
	var docs []*shardDoc
	for _, p := range paths {
		data, err := readInputFile(p, maxShardFileBytes)
		if err != nil {
			return nil, usageErr("%s: %v", p, err)
		}
		d := &shardDoc{file: p}
		if isExploreShard(data) {
			if d, err = decodeExploreShard(p, data); err != nil {
				return nil, err
			}
		} else {
			dec := json.NewDecoder(strings.NewReader(string(data)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(d); err != nil {
				return nil, usageErr("%s: not a shard file: %v", p, err)
			}
		}
		if d.Schema != ShardSchema {
			return nil, usageErr("%s: schema %q, want %q (a file written by matrix or sweep with --shard)", p, d.Schema, ShardSchema)
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		return nil, usageErr("merge: give the shard files")
	}
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].Index < docs[j].Index })
	first := docs[0]
	for _, d := range docs {
		if d.Command != first.Command || strings.Join(d.Args, "\x00") != strings.Join(first.Args, "\x00") ||
			d.Count != first.Count || d.Seeds != first.Seeds {
			return nil, usageErr("%s: shard of `%s %s` (%d shards, %d seeds), but %s is of `%s %s` (%d shards, %d seeds)",
				d.file, d.Command, strings.Join(d.Args, " "), d.Count, d.Seeds,
				first.file, first.Command, strings.Join(first.Args, " "), first.Count, first.Seeds)
		}
		if d.Index < 0 || d.Index >= d.Count {
			return nil, usageErr("%s: shard %d/%d: the index is not in 0..%d", d.file, d.Index, d.Count, d.Count-1)
		}
		want := batch.Shard{Index: d.Index, Count: d.Count}.Seeds(d.Seeds)
		if d.explore == nil && (d.From != want.Lo || d.To != want.Hi) {
			return nil, usageErr("%s: shard %d/%d covers seeds %d..%d, want %d..%d", d.file, d.Index, d.Count, d.From, d.To, want.Lo, want.Hi)
		}
		if len(d.Rows) != len(first.Rows) {
			return nil, usageErr("%s: %d rows, but %s has %d", d.file, len(d.Rows), first.file, len(first.Rows))
		}
	}
	for i := 1; i < len(docs); i++ {
		if docs[i].Index == docs[i-1].Index {
			return nil, usageErr("%s and %s: both are shard %d/%d", docs[i-1].file, docs[i].file, docs[i].Index, docs[i].Count)
		}
	}
	if len(docs) != first.Count {
		var missing []string
		have := map[int]bool{}
		for _, d := range docs {
			have[d.Index] = true
		}
		for i := range first.Count {
			if !have[i] && len(missing) < 10 {
				missing = append(missing, strconv.Itoa(i))
			}
		}
		return nil, usageErr("merge: %d of %d shards given; missing %s", len(docs), first.Count, strings.Join(missing, ", "))
	}
	out := *first
	if first.explore != nil {
		out.searched = mergeExploreShards(docs)
		return &out, nil
	}
	out.tallies = make([]batch.Tally, len(first.Rows))
	for _, d := range docs {
		for i := range d.Rows {
			if d.Rows[i].Label != first.Rows[i].Label {
				return nil, usageErr("%s: row %d is %q, but in %s it is %q", d.file, i+1, d.Rows[i].Label, first.file, first.Rows[i].Label)
			}
			t := d.Rows[i].tally()
			out.tallies[i].Merge(&t)
		}
	}
	return &out, nil
}

// maxShardFileBytes bounds one shard file.
const maxShardFileBytes = 64 << 20

// shardFiles expands the arguments of merge: a file is itself, a
// directory is every *.json file in it, in name order.
func shardFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			out = append(out, a) // reading it names the problem
			continue
		}
		matches, err := filepath.Glob(filepath.Join(a, "*.json"))
		if err != nil {
			return nil, usageErr("%s: %v", a, err)
		}
		if len(matches) == 0 {
			return nil, usageErr("%s: a directory with no *.json shard files", a)
		}
		sort.Strings(matches)
		out = append(out, matches...)
	}
	return out, nil
}
