// Command agreement runs every scenario and variant a --broker driver
// runs, in the simulator and on the real broker, on the same seeds, and
// writes the per-operation agreement: make broker-agreement records the
// results in brokers/testdata/broker-agreement.json and writes
// docs/broker-agreement.md from them. With -render it only writes the
// report again from the record (after a change of its wording).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/oncesim/once/brokers"
)

func main() {
	seeds := flag.Int("seeds", 20, "seeds per row")
	out := flag.String("out", "docs/broker-agreement.md", "the report to write")
	record := flag.String("record", "brokers/testdata/broker-agreement.json", "the recorded results")
	only := flag.String("only", "", "run only the rows whose scenario, semantics and --set contain this; the record's other rows are kept")
	broker := flag.String("broker", "", "run only the rows on this broker (rabbitmq, redis, nats, kfake); the record's other rows are kept")
	min := flag.Float64("min", 0, "exit 1 when fewer than this percentage of operations agree, in all or in a row")
	render := flag.Bool("render", false, "run nothing: write the report again from the record (its rows must be today's)")
	flag.Parse()
	if err := run(*seeds, *out, *record, *only, brokers.Kind(*broker), *min, *render); err != nil {
		fmt.Fprintln(os.Stderr, "broker-agreement:", err)
		os.Exit(1)
	}
}

func run(seeds int, out, recordPath, only string, broker brokers.Kind, min float64, render bool) error {
	var rec *brokers.AgreementRecord
	if render {
		b, err := os.ReadFile(recordPath)
		if err != nil {
			return err
		}
		rec = &brokers.AgreementRecord{}
		if err := json.Unmarshal(b, rec); err != nil {
			return fmt.Errorf("%s: %w", recordPath, err)
		}
		if err := rec.Refresh(brokers.AgreementCases()); err != nil {
			return fmt.Errorf("%s: %w; run make broker-agreement", recordPath, err)
		}
	} else {
		if seeds < 1 {
			return fmt.Errorf("-seeds %d: want a positive count", seeds)
		}
		var err error
		if rec, err = measure(seeds, only, broker); err != nil {
			return err
		}
		if only != "" || broker != "" { // the other rows stay as recorded, when the record has them on as many seeds
			if b, err := os.ReadFile(recordPath); err == nil {
				old := &brokers.AgreementRecord{}
				if err := json.Unmarshal(b, old); err == nil && old.Seeds == seeds {
					old.Merge(rec, brokers.AgreementCases())
					if err := old.Refresh(brokers.AgreementCases()); err != nil { // today's wording of the kept rows
						return fmt.Errorf("%s: %w; run make broker-agreement", recordPath, err)
					}
					old.Command = fmt.Sprintf("go run ./brokers/agreement -seeds %d", seeds)
					rec = old
				}
			}
		}
		b, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(recordPath, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	rec.WriteMarkdown(&b)
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return err
	}
	ops, agree := rec.Total()
	fmt.Fprintf(os.Stderr, "broker-agreement: %d of %d operations agree (%.1f %%); written to %s and %s\n", agree, ops, 100*float64(agree)/float64(max(ops, 1)), recordPath, out)
	if u := rec.Unexplained(); len(u) > 0 {
		return fmt.Errorf("disagreements without a documented reason:\n  %s", strings.Join(u, "\n  "))
	}
	if 100*float64(agree) < min*float64(ops) {
		return fmt.Errorf("%d of %d operations agree: under %.0f %%", agree, ops, min)
	}
	var under []string // the issue asks it of every row
	for _, res := range rec.Results {
		if 100*float64(res.Agree) < min*float64(res.Ops) {
			under = append(under, fmt.Sprintf("%s on %s: %d of %d operations agree", res.Case, res.Case.Broker, res.Agree, res.Ops))
		}
	}
	if len(under) > 0 {
		return fmt.Errorf("rows under %.0f %%:\n  %s", min, strings.Join(under, "\n  "))
	}
	return nil
}

// measure builds once (its worker processes), starts one server per
// broker the rows need, runs the rows and stops the servers.
func measure(seeds int, only string, broker brokers.Kind) (*brokers.AgreementRecord, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	cases := brokers.SelectCases(brokers.AgreementCases(), only, broker)
	var kinds []brokers.Kind
	for _, c := range cases {
		if c.Broker != brokers.KFake && !c.CrashesBroker && !slices.Contains(kinds, c.Broker) { // a row that crashes its broker starts its own
			kinds = append(kinds, c.Broker)
		}
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("no row matches -only %q -broker %q", only, broker)
	}
	dir, err := os.MkdirTemp("", "once-broker-agreement-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "once")
	if b, err := exec.Command("go", "build", "-o", bin, "github.com/oncesim/once/cmd/once").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building once: %v\n%s", err, b)
	}
	urls := map[brokers.Kind]string{}
	for _, k := range kinds {
		fmt.Fprintf(os.Stderr, "broker-agreement: starting a throwaway %s server…\n", k.Title())
		srv, err := brokers.Start(ctx, k, brokers.ServerOptions{})
		if err != nil {
			return nil, err
		}
		defer srv.Stop()
		urls[k] = srv.URL
	}
	res, err := brokers.RunAgreement(ctx, brokers.AgreementOptions{Seeds: seeds, URL: urls, Worker: []string{bin, brokers.WorkerCommand}, Log: os.Stderr, Commit: commit()}, cases)
	if err != nil {
		return nil, err
	}
	how := fmt.Sprintf("go run ./brokers/agreement -seeds %d", seeds)
	return &brokers.AgreementRecord{Command: how, Seeds: seeds, Results: res}, nil
}

// commit is the code being measured: HEAD's short hash, with "+changes"
// when the worktree differs from it; "unknown" outside a git checkout.
func commit() string {
	head, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(head))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		c += "+changes"
	}
	return c
}
