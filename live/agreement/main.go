// Command agreement runs every scenario and variant live mode supports in
// the simulator and live, on the same seeds, on SQLite and (with -db) on
// PostgreSQL, and writes the per-operation agreement with every
// disagreement and its evidence: make live-agreement writes
// docs/live-agreement.md with it.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/oncesim/once/live"
)

func main() {
	seeds := flag.Int("seeds", 20, "seeds per variant and database")
	dsn := flag.String("db", os.Getenv("ONCE_TEST_POSTGRES"), "a PostgreSQL URL (default $ONCE_TEST_POSTGRES; empty: SQLite only)")
	tick := flag.Duration("tick", 2*time.Millisecond, "real time of one virtual millisecond")
	out := flag.String("out", "docs/live-agreement.md", "the report to write")
	only := flag.String("only", "", "run only the variants whose name contains this")
	min := flag.Float64("min", 0, "exit 1 when fewer than this percentage of operations agree")
	jobs := flag.Int("jobs", 1, "rows (a variant on one database) run at once")
	flag.Parse()
	if err := run(*seeds, *dsn, *tick, *out, *only, *min, *jobs); err != nil {
		fmt.Fprintln(os.Stderr, "agreement:", err)
		os.Exit(1)
	}
}

func run(seeds int, dsn string, tick time.Duration, out, only string, min float64, jobs int) error {
	if seeds < 1 || tick <= 0 || jobs < 1 {
		return fmt.Errorf("-seeds %d -tick %s -jobs %d: want positive values", seeds, tick, jobs)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dir, err := os.MkdirTemp("", "once-agreement-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "once")
	if b, err := exec.Command("go", "build", "-o", bin, "github.com/oncesim/once/cmd/once").CombinedOutput(); err != nil {
		return fmt.Errorf("building once: %v\n%s", err, b)
	}
	var variants []live.Variant
	for _, v := range live.Variants() {
		if strings.Contains(v.String(), only) {
			variants = append(variants, v)
		}
	}
	a := &live.Agreement{Binary: bin, DSN: dsn, Tick: tick, Seeds: seeds, Jobs: jobs, Log: os.Stderr}
	if err := a.Run(ctx, variants); err != nil {
		return err
	}
	how := fmt.Sprintf("go run ./live/agreement -seeds %d -tick %s -jobs %d", seeds, tick, jobs)
	if only != "" {
		how += " -only '" + only + "'"
	}
	var b bytes.Buffer
	a.WriteMarkdown(&b, how)
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return err
	}
	ops, agree := a.Total()
	fmt.Fprintf(os.Stderr, "agreement: %d of %d operations agree (%.1f %%); written to %s\n", agree, ops, 100*float64(agree)/float64(max(ops, 1)), out)
	if 100*float64(agree) < min*float64(ops) {
		return fmt.Errorf("%d of %d operations agree: under %.0f %%", agree, ops, min)
	}
	return nil
}
