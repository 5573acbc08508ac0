package main

import (
	"io"
	"os"
	"runtime"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/matrix"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/shard"
	"github.com/oncesim/once/sim"
)

type matrixOptions struct {
	files   []string
	seeds   int
	workers int
	format  string
	check   bool
	swarm   bool
	budgets simFlags // --max-events and --max-time only
	batch   batchFlags
	prof    profileFlags
	canon   []string              // the arguments that decide the result (for shards)
	merged  []*scenarios.Scenario // set by merge: the -f files the shards carry, loaded
}

func newMatrixCmd() *cobra.Command { return newMatrixCmdWith(&matrixOptions{}) }

// newMatrixCmdWith builds the matrix command on o (merge fills o.batch
// with the shards' tallies first).
func newMatrixCmdWith(o *matrixOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use: "matrix [SCENARIO…] | -f FILE…",
		Args: func(_ *cobra.Command, args []string) error {
			if len(o.files) > 0 && len(args) > 0 {
				return usageErr("give SCENARIO names or -f FILE, not both")
			}
			return nil
		},
		Example: `  once matrix
  once matrix double-billing --seeds 1000
  once matrix double-billing at-least-once-duplicate --format md
  once matrix --format json --check
  once matrix -f my-scenario.yaml --check
  once matrix --seeds 100000 --shard 3/8 > part3.json   # then: once merge part*.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.canon = canonicalArgs(cmd, args)
			return o.prof.around(func() error {
				return o.batch.writing(cmd.OutOrStdout(), func(w io.Writer) error { return runMatrix(o, args, w, cmd.ErrOrStderr()) })
			})
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&o.files, "file", "f", nil, "a scenario file (YAML) instead of catalog names (repeatable)")
	fl.IntVar(&o.seeds, "seeds", 200, "runs per row: seeds 1..N")
	fl.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parallel runs (default: GOMAXPROCS); the result does not depend on it")
	fl.StringVar(&o.format, "format", "text", "output: text|json|md")
	fl.BoolVar(&o.check, "check", false, "exit 1 if an expectation failed or a run did not settle after --faults-until, 3 if an expectation is unknown (runs cut by a budget)")
	fl.BoolVar(&o.swarm, "swarm", false, "swarm testing: every seed draws its own fault profile (each of a row's fault kinds on or off, ×¼ to ×4); a failing seed's replay line carries it")
	o.budgets.registerBudgets(fl)
	o.budgets.registerLiveness(fl)
	o.batch.register(fl)
	o.prof.register(fl)
	return cmd
}

func checkSeedsWorkers(seeds, workers int) error {
	if seeds < 1 || seeds > batch.MaxSeeds {
		return usageErr("--seeds %d: want 1..%d", seeds, batch.MaxSeeds)
	}
	if workers < 1 {
		return usageErr("--workers %d: want at least 1", workers)
	}
	return nil
}

func runMatrix(o *matrixOptions, args []string, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, "text", "json", "md"); err != nil {
		return err
	}
	if err := checkSeedsWorkers(o.seeds, o.workers); err != nil {
		return err
	}
	if err := o.batch.parse(); err != nil {
		return err
	}
	scs, err := o.merged, error(nil)
	if len(scs) == 0 {
		scs, err = matrix.Scenarios(args, o.files)
	}
	if err != nil {
		return usageErr("%v", err)
	}
	for i := range scs {
		scs[i] = scs[i].ShownAs(o.format) // a file's texts with their control characters escaped, but in JSON
	}
	rows, err := matrix.Rows(scs, o.budgets.budgetsInto)
	if err != nil {
		return usageErr("%v", err)
	}
	cfgs := make([]*sim.Config, len(rows))
	labels := make([]string, len(rows))
	for i := range rows {
		cfgs[i], labels[i] = rows[i].Config, rows[i].Label()
	}
	tallies, done, stopped := o.batch.tallies("matrix", o.canon, shard.ScenarioFiles(scs...), cfgs, labels, o.seeds, o.workers, matrix.BatchOptions(rows, o.swarm), stderr, stdout)
	if done || tallies == nil { // a stopped batch has its tallies: reported, then exit 3
		return stopped
	}
	doc, verdict := matrix.Doc(rows, tallies, o.seeds, o.swarm)
	switch o.format {
	case "json":
		err = report.WriteJSON(stdout, doc)
	case "md":
		err = report.WriteMatrixMarkdown(stdout, doc)
	default:
		err = report.WriteMatrixText(colorprofile.NewWriter(stdout, os.Environ()), doc)
	}
	if err != nil {
		return err
	}
	if o.check && (stopped == nil || verdict == sim.Violated) {
		return checkExit(verdict)
	}
	return stopped
}
