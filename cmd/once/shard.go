package main

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
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
	fl.StringVar(&b.shardSpec, "shard", "", "run only part i of n (0-based, e.g. 2/8) of the seeds and write a shard file for `once merge`; the index may come from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID (--shard index/8)")
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

// searchParams are the flags of matrix, sweep and explore that are
// parameters of the search or of its report: what a shard records and
// the only flags merge accepts in a shard's arguments. (Every flag of
// the three commands is here or in notParams: a test keeps it so.)
var searchParams = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		"seeds", "semantics", "ops", "set", "vary", "max-events", "max-time", // the runs
		"max-faults", "max-preemptions", "faults", "property", "max-depth", "max-states", "max-memory", // the search
		"format", "check", "timing", // the report
	} {
		m[n] = true
	}
	for k := range sim.FaultKinds {
		m[sim.FaultKinds[k].Name] = true
		if d := sim.FaultKinds[k].Duration; d != nil {
			m[d.Name] = true
		}
	}
	return m
}()

// notParams are the flags a shard never records, and why merge refuses
// them in a shard's arguments: they name a file or an output, ask for
// help, or say how to run on one machine.
var notParams = map[string]string{
	"file":       "names a scenario file (a shard carries the file's text, not its path)",
	"out":        "names an output file (merge writes only where its own --out says)",
	"save":       "names an output file (merge writes only where its own --out says)",
	"cpuprofile": "names a profile file",
	"memprofile": "names a profile file",
	"help":       "asks for help",
	"shard":      "says which shard to run, not what",
	"workers":    "says how to run, not what",
}

// canonicalArgs spells the command line that decides a batch's result:
// the positional arguments and every search parameter the user set, but
// not the flags that only say how to run it (--shard, --workers,
// profiles) or name a file (--out, --file: a shard carries the scenario
// file's text). Shards of one batch carry the same canonical arguments;
// merge checks it, checks them, and runs the command again with them.
func canonicalArgs(cmd *cobra.Command, args []string) []string {
	out := append([]string{}, args...)
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if !searchParams[f.Name] {
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

// scenarioFiles are the scenario files among scs, as a shard carries
// them: the name the command line gave and the bytes loaded.
func scenarioFiles(scs ...*scenarios.Scenario) []shard.ScenarioFile {
	var out []shard.ScenarioFile
	for _, sc := range scs {
		if !runs.FromCatalog(sc) {
			out = append(out, shard.ScenarioFile{Name: sc.File, Text: string(sc.Source)})
		}
	}
	return out
}

// tallies runs a batch's rows on this machine, or writes this shard's
// tallies and reports done, or takes the merged tallies of `once merge`.
// labels name the rows (a shard file carries them so merge can check it
// rebuilt the same rows).
func (b *batchFlags) tallies(command string, canon []string, files []shard.ScenarioFile, cfgs []*sim.Config, labels []string, seeds, workers int,
	progress batch.Progress, stdout io.Writer) (tallies []batch.Tally, done bool, err error) {
	switch {
	case b.merged != nil:
		ops := make([]int, len(cfgs))
		for i, c := range cfgs {
			ops[i] = c.Ops
		}
		if err := b.merged.CheckTallies(labels, ops, seeds); err != nil {
			return nil, true, usageErr("%v", err)
		}
		return b.merged.Tallies, false, nil
	case b.sharded:
		h := shard.Header{Command: command, Args: canon, Index: b.shard.Index, Count: b.shard.Count, ScenarioFiles: files}
		return nil, true, shard.RunAndWrite(stdout, h, b.shard, cfgs, labels, seeds, workers, progress)
	}
	return batch.Run(cfgs, seeds, workers, progress), false, nil
}
