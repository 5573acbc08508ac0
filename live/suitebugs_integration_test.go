//go:build integration

package live

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// suiteJSON runs once live --suite payments --format json with args and
// returns the document and the exit code; a document that does not parse
// fails the test.
func suiteJSON(t *testing.T, args ...string) (suiteDoc, int, string) {
	out, errs, code := onceQuiet(append([]string{"live", "--suite", "payments", "--format", "json"}, args...)...)
	var doc suiteDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("once live --suite %v: exit %d, not JSON (%v):\n%s\n%s", args, code, err, out, errs)
	}
	return doc, code, errs
}

// rowOf is the row of doc whose id is row.
func rowOf(t *testing.T, doc suiteDoc, row string) suiteRowJS {
	t.Helper()
	for _, r := range doc.Rows {
		if r.Row == row {
			return r
		}
	}
	t.Fatalf("no row %s in the suite", row)
	return suiteRowJS{}
}

// failingRows names each violated row of doc with its failing seeds
// ("lease: 1 3"), and the first seed any row failed on.
func failingRows(doc suiteDoc) (rows []string, first uint64) {
	for _, r := range doc.Rows {
		if len(r.Failures) == 0 {
			continue
		}
		var seeds []string
		for _, f := range r.Failures {
			seeds = append(seeds, strconv.FormatUint(f.Seed, 10))
			if first == 0 || f.Seed < first {
				first = f.Seed
			}
		}
		rows = append(rows, r.Row+": "+strings.Join(seeds, " "))
	}
	return rows, first
}

// TestIntegrationSuiteCatchesPlantedBugs runs once live --suite payments
// with --restart-cmd against the careful Python service (every row, one
// seed: ONCE_SUITE_CAREFUL_SEEDS) and its four planted bugs (each one
// line away, examples/live/python/bugs; the rows each is about, --rows, on
// 5 seeds: ONCE_SUITE_BUG_SEEDS), the five suites at once, each service
// with a provider of its own per run (--provider-addr 127.0.0.1:0: the
// services find it only by the X-Once-Provider header, their
// $ONCE_PROVIDER_URL names a port nobody listens on). The careful
// service holds every row; each bug fails the suite (exit 1), and the
// replay line of its first failing seed, run again, fails too. The rows
// and seeds each bug failed on are logged. The whole suite on 5 seeds
// against each, which catches each bug too, is measured in docs/live.md
// (10 to 15 minutes a service on a loaded machine: too long for CI).
func TestIntegrationSuiteCatchesPlantedBugs(t *testing.T) {
	python := needPython(t, "the planted-bug suites")
	bugSeeds, carefulSeeds := envSeeds("ONCE_SUITE_BUG_SEEDS", 5), envSeeds("ONCE_SUITE_CAREFUL_SEEDS", 1)
	for _, c := range []struct {
		file string
		rows []string // the rows run, of which one at least must fail; nil: every row, all held
	}{
		{"careful_service.py", nil},
		{"bugs/lease_shorter_than_timeout.py", []string{"lease"}},
		{"bugs/recovery_point_before_charge.py", []string{"lease", "crash_points"}},
		{"bugs/fingerprint_without_amount.py", []string{"reuse"}},
		{"bugs/no_recovery_after_restart.py", []string{"crash_points", "restart"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			target, restartCmd := restartable(t, freeAddr(t), python, mustAbs(t, "../examples/live/python/"+c.file))
			args := []string{"--target", target, "--provider-addr", "127.0.0.1:0", "--restart-cmd", restartCmd}
			seeds := carefulSeeds
			if c.rows != nil {
				seeds = bugSeeds
				args = append(args, "--rows", strings.Join(c.rows, ","))
			}
			doc, code, errs := suiteJSON(t, append(args, "--seeds", strconv.Itoa(seeds))...)
			failed, first := failingRows(doc)
			t.Logf("%s, seeds 1–%d: verdict %s, failing rows %v, first failing seed %d", c.file, seeds, doc.Verdict, failed, first)
			for _, r := range doc.Rows {
				if !r.Run {
					t.Errorf("row %s not run with --restart-cmd", r.Row)
				}
			}
			if c.rows == nil {
				if code != 0 || doc.Verdict != "held" {
					t.Fatalf("the careful service: exit %d, verdict %s, failing %v, want 0 and held:\n%s", code, doc.Verdict, failed, errs)
				}
				return
			}
			if len(doc.Rows) != len(c.rows) {
				t.Errorf("--rows %v: %d rows run", c.rows, len(doc.Rows))
			}
			if code != 1 || doc.Verdict != "violated" {
				t.Fatalf("exit %d, verdict %s, want 1 and violated:\n%s", code, doc.Verdict, errs)
			}
			var caught *suiteFailJS
			for _, row := range c.rows {
				if r := rowOf(t, doc, row); len(r.Failures) > 0 && caught == nil {
					caught = &r.Failures[0]
				}
			}
			if caught == nil {
				t.Fatalf("none of the rows %v failed (failing: %v)", c.rows, failed)
			}
			replay, ok := strings.CutPrefix(caught.Replay, "once ")
			if !ok || !strings.Contains(replay, "--target ") {
				t.Fatalf("replay line %q: want a live once command with --target", caught.Replay)
			}
			cmd := exec.Command("sh", "-c", onceBinary+" "+replay+" --check")
			out, err := cmd.CombinedOutput()
			if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
				t.Errorf("the replay line %q: %v, want exit 1:\n%s", caught.Replay, err, out)
			}
		})
	}
}

// TestIntegrationSuitePythonExamples runs the suite (no --restart-cmd,
// --seeds 1) against the naive and the idempotent Python examples, each
// with a provider of its own per run that they find only by the
// X-Once-Provider header: the naive service fails, the double click
// among its rows (both clicks charged); the idempotent one holds every row
// that runs, the double click too (the second click answered 409 or the
// stored response).
func TestIntegrationSuitePythonExamples(t *testing.T) {
	python := needPython(t, "the Python examples under the suite")
	for _, c := range []struct {
		file  string
		naive bool
	}{{"naive_service.py", true}, {"idempotent_service.py", false}} {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			nobody := freeAddr(t) // $ONCE_PROVIDER_URL: nothing listens there
			target := startService(t, nobody, python, "../examples/live/python/"+c.file)
			doc, code, errs := suiteJSON(t, "--seeds", "1", "--target", target, "--provider-addr", "127.0.0.1:0")
			if strings.Contains(errs, "no charge call reached the provider") {
				t.Errorf("the service did not charge at the X-Once-Provider of the run:\n%s", errs)
			}
			click := rowOf(t, doc, "double_click")
			if c.naive {
				if code != 1 || click.Verdict != "violated" || len(click.Failures) != 1 || len(click.Failures[0].Ops) == 0 {
					t.Fatalf("the naive service: exit %d, the double click %+v, want 1 and violated with charge ids:\n%s", code, click, errs)
				}
				return
			}
			if code != 0 || doc.Verdict != "held" || click.Verdict != "held" {
				failed, _ := failingRows(doc)
				t.Fatalf("the idempotent service: exit %d, verdict %s, failing %v, want 0 and held:\n%s", code, doc.Verdict, failed, errs)
			}
		})
	}
}
