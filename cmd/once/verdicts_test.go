package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// cutScenario writes a copy of double-billing whose expectation rows are
// one that every run leaves unfinished (ack-loss 1: the client retries
// until the time budget), one that fails (an in-memory key store that a
// crash empties) and one that holds. It returns the file's path.
func cutScenario(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../scenarios/catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), "name: double-billing", "name: cut-billing", 1)
	i, j := strings.Index(s, "\nexpect:\n"), strings.Index(s, "\nexplore:")
	if i < 0 || j < i {
		t.Fatal("double-billing.yaml has no expect: block followed by explore:")
	}
	s = s[:i] + `
expect:
  - {semantics: alo, faults: {loss: 0.1, ack-loss: 1}, show: [">=1"]}
  - {semantics: idem, set: {store: memory}, faults: {loss: 0.1, ack-loss: 0.3, crash: 0.2}, show: ["=1"]}
  - {semantics: amo, faults: {loss: 0.5}, show: ["<=1", lost]}
` + s[j:]
	file := filepath.Join(t.TempDir(), "cut-billing.yaml")
	if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// runJSON is the part of `once run --format json` these tests read.
type runJSON struct {
	Results []struct {
		PromiseHeld *bool  `json:"promise_held"`
		Status      string `json:"status"`
		Finished    bool   `json:"finished"`
		Duplicated  int    `json:"duplicated"`
		Digest      string `json:"trace_digest"`
		Replay      string `json:"replay"`
	} `json:"results"`
}

func decode(t *testing.T, what, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, s)
	}
}

// replayArgs turns a printed `once run …` line into arguments.
func replayArgs(t *testing.T, line string) []string {
	t.Helper()
	args := strings.Fields(line)
	if len(args) < 2 || args[0] != "once" {
		t.Fatalf("not a command line: %q", line)
	}
	return args[1:]
}

// runLine executes a printed run line with --format json and returns its
// single result.
func runLine(t *testing.T, line string) runJSON {
	t.Helper()
	out, _ := runCLI(t, exitOK, append(replayArgs(t, line), "--format", "json")...)
	var r runJSON
	decode(t, line, out, &r)
	if len(r.Results) != 1 {
		t.Fatalf("%s: %d results, want 1", line, len(r.Results))
	}
	return r
}

// TestUnfinishedRunIsUnknownEverywhere: a run cut by its time budget is
// neither held nor broken. run says unknown (null in JSON) and --check
// exits 1; matrix calls the expectation it decides unknown and prints a
// run that run calls unknown too; sweep counts it as unfinished and
// prints a run that run calls unknown. Before, run said "held" (exit 0
// with --check), matrix "FAILED ≥1", sweep 0% lost.
func TestUnfinishedRunIsUnknownEverywhere(t *testing.T) {
	file := cutScenario(t)
	unknown := func(what string, r runJSON) {
		t.Helper()
		res := r.Results[0]
		if res.PromiseHeld != nil || res.Finished || res.Status != "unknown" {
			t.Errorf("%s: promise_held %v, finished %v, status %s; want null, false, unknown", what, res.PromiseHeld, res.Finished, res.Status)
		}
	}

	// run
	direct := []string{"run", "-f", file, "--semantics", "alo", "--ack-loss", "1"}
	var r runJSON
	out, _ := runCLI(t, exitOK, append(direct, "--format", "json")...)
	decode(t, "run", out, &r)
	unknown("run", r)
	text, _ := runCLI(t, exitIncomplete, append(direct, "--check")...)
	if !strings.Contains(text, "unknown (unfinished: time budget exhausted)") {
		t.Errorf("run text does not say unknown (unfinished):\n%s", text)
	}

	// matrix: the unknown row, and the run it names
	out, _ = runCLI(t, exitOK, "matrix", "-f", file, "--seeds", "3", "--format", "json")
	var m report.MatrixDoc
	decode(t, "matrix", out, &m)
	if len(m.Cells) != 3 {
		t.Fatalf("matrix: %d cells, want 3", len(m.Cells))
	}
	cut, broken, held := m.Cells[0], m.Cells[1], m.Cells[2]
	if cut.Expectation != "unknown" || cut.ExpectationHeld != nil || cut.RunsUnfinished != 3 || cut.UnknownClaim != "≥1" || cut.FailedClaim != "" {
		t.Errorf("matrix cut row: %+v", cut)
	}
	unknown("matrix replay "+cut.Replay, runLine(t, cut.Replay))
	// The failed row names a run that run calls violated, with a duplicate.
	if broken.Expectation != "failed" || broken.ExpectationHeld == nil || *broken.ExpectationHeld || broken.FailedClaim != "=1" {
		t.Errorf("matrix broken row: %+v", broken)
	}
	if res := runLine(t, broken.Replay).Results[0]; res.Status != "violated" || res.Duplicated == 0 {
		t.Errorf("matrix says %s is broken by a duplicate; run says %s with %d duplicated", broken.Replay, res.Status, res.Duplicated)
	}
	if held.Expectation != "held" || held.ExpectationHeld == nil || !*held.ExpectationHeld {
		t.Errorf("matrix held row: %+v", held)
	}
	runCLI(t, exitViolation, "matrix", "-f", file, "--seeds", "3", "--check")
	mtext, _ := runCLI(t, exitOK, "matrix", "-f", file, "--seeds", "3")
	for _, want := range []string{"unfinished", "UNKNOWN ≥1", "1 of 3 expectations unknown", "3 of 3 runs unfinished"} {
		if !strings.Contains(mtext, want) {
			t.Errorf("matrix text lacks %q:\n%s", want, mtext)
		}
	}

	// sweep: the unfinished point, and the run it names
	out, _ = runCLI(t, exitOK, "sweep", "-f", file, "--semantics", "alo", "--vary", "ack-loss=0.5:1:0.5", "--seeds", "3", "--format", "json")
	var sw report.SweepDoc
	decode(t, "sweep", out, &sw)
	if len(sw.Points) != 2 {
		t.Fatalf("sweep: %d points, want 2", len(sw.Points))
	}
	if p := sw.Points[0]; p.RunsUnfinished != 0 || p.Replay != "" {
		t.Errorf("sweep ack-loss=0.5: %d unfinished, replay %q; want none", p.RunsUnfinished, p.Replay)
	}
	p := sw.Points[1]
	if p.RunsUnfinished != 3 || p.UnfinishedRate != 1 || p.Replay == "" {
		t.Fatalf("sweep ack-loss=1: %d unfinished (rate %v), replay %q; want 3, 1, a command", p.RunsUnfinished, p.UnfinishedRate, p.Replay)
	}
	unknown("sweep replay "+p.Replay, runLine(t, p.Replay))
	stext, _ := runCLI(t, exitOK, "sweep", "-f", file, "--semantics", "alo", "--vary", "ack-loss=0.5:1:0.5", "--seeds", "3")
	if !strings.Contains(stext, "no run finished") || !strings.Contains(stext, "3 of 3 runs unfinished") {
		t.Errorf("sweep text does not show the unfinished point:\n%s", stext)
	}
}

var seedFlag = regexp.MustCompile(` --seed (\d+)`)

// digestOf runs cfg on seed the way matrix and sweep do and returns the
// trace digest.
func digestOf(t *testing.T, sc *scenarios.Scenario, set scenarios.Settings, seed uint64) string {
	t.Helper()
	o, err := runs.Outcome(sc, set, sim.NewRandom(seed), nil)
	if err != nil {
		t.Fatal(err)
	}
	return report.DigestString(o.Digest)
}

func seedOf(t *testing.T, line string) uint64 {
	t.Helper()
	m := seedFlag.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("no --seed in %q", line)
	}
	n, err := strconv.ParseUint(m[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestReproLinesReproduce executes every repro line the commands print —
// run's replay (text and JSON, with budgets, a file, parameters and
// faults), the one under a shrunk --check violation, run --save's plan,
// matrix's and sweep's replay lines (also under --max-events and
// --max-time), explore's counterexample (with --max-memory) — and checks
// that it reproduces the run it names, digest for digest. Before, the
// budgets were dropped and the lines replayed another run; matrix and
// sweep took no budgets; explore's search line dropped --max-memory.
func TestReproLinesReproduce(t *testing.T) {
	file := cutScenario(t)
	dir := t.TempDir()

	// run: every result's replay line gives its digest back.
	for _, args := range [][]string{
		{"run", "double-billing", "--seed", "4", "--max-time", "2s"},
		{"run", "double-billing", "--semantics", "alo", "--ack-loss", "1", "--max-events", "3000"},
		{"run", "-f", file, "--semantics", "idem,amo", "--seed", "9", "--set", "store=memory", "--set", "ttl=2s", "--crash", "0.3", "--ops", "7"},
		{"run", "at-least-once-duplicate", "--seed", "2", "--dup", "0.2", "--max-time", "1500ms", "--max-events", "90000"},
	} {
		out, _ := runCLI(t, exitOK, append(args, "--format", "json")...)
		var r runJSON
		decode(t, strings.Join(args, " "), out, &r)
		for _, res := range r.Results {
			if got := runLine(t, res.Replay).Results[0].Digest; got != res.Digest {
				t.Errorf("%s: replay %q gives digest %s, the run %s", strings.Join(args, " "), res.Replay, got, res.Digest)
			}
		}
	}

	// run --check: the replay line printed under a shrunk violation.
	args := []string{"run", "double-billing", "--semantics", "idem", "--set", "store=memory", "--crash", "0.3", "--seed", "2", "--max-time", "20s"}
	text, _ := runCLI(t, exitViolation, append(args, "--check")...)
	i := strings.Index(text, "replay: ")
	if i < 0 {
		t.Fatalf("run --check printed no replay line:\n%s", text)
	}
	line := strings.TrimSpace(strings.SplitN(text[i+len("replay: "):], "\n", 2)[0])
	out, _ := runCLI(t, exitOK, append(args, "--format", "json")...)
	var orig runJSON
	decode(t, "run", out, &orig)
	if got := runLine(t, line).Results[0].Digest; got != orig.Results[0].Digest {
		t.Errorf("run --check replay %q gives digest %s, the run %s", line, got, orig.Results[0].Digest)
	}

	// run --save: the plan carries the budgets.
	plan := filepath.Join(dir, "cut.plan")
	out, _ = runCLI(t, exitOK, "run", "double-billing", "--semantics", "alo", "--ack-loss", "1", "--max-time", "5s", "--max-events", "4000", "--seed", "3", "--save", plan, "--format", "json")
	decode(t, "run --save", out, &orig)
	out, _ = runCLI(t, exitOK, "replay", plan, "--format", "json")
	var replayed runJSON
	decode(t, "replay", out, &replayed)
	if replayed.Results[0].Digest != orig.Results[0].Digest {
		saved, _ := os.ReadFile(plan)
		t.Errorf("replay of the saved plan gives digest %s, the run %s; plan:\n%s", replayed.Results[0].Digest, orig.Results[0].Digest, saved)
	}

	// matrix: each replay line gives the digest of the row's run on its seed.
	sc, err := loadScenarioFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out, _ = runCLI(t, exitOK, "matrix", "-f", file, "--seeds", "5", "--format", "json")
	var m report.MatrixDoc
	decode(t, "matrix", out, &m)
	lines := 0
	for k, c := range m.Cells {
		if c.Replay == "" {
			continue
		}
		lines++
		e := &sc.Expect[k]
		want := digestOf(t, sc, e.Settings(sc), seedOf(t, c.Replay))
		if got := runLine(t, c.Replay).Results[0].Digest; got != want {
			t.Errorf("matrix %s: replay %q gives digest %s, the row's run %s", c.Row, c.Replay, got, want)
		}
	}
	if lines < 2 {
		t.Errorf("matrix printed %d replay lines, want one for the unknown and one for the failed row", lines)
	}

	// sweep: the replay line of the unfinished point.
	out, _ = runCLI(t, exitOK, "sweep", "-f", file, "--semantics", "alo", "--set", "ttl=1s", "--crash", "0.1", "--vary", "ack-loss=1:1:0.5", "--seeds", "2", "--format", "json")
	var sw report.SweepDoc
	decode(t, "sweep", out, &sw)
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{"ttl": "1s"}}
	set.Faults.Probability[sim.FaultCrash], set.Faults.Probability[sim.FaultAckLoss] = 0.1, 1
	if p := sw.Points[0]; p.Replay == "" {
		t.Errorf("sweep printed no replay line for its unfinished point")
	} else if got, want := runLine(t, p.Replay).Results[0].Digest, digestOf(t, sc, set, seedOf(t, p.Replay)); got != want {
		t.Errorf("sweep: replay %q gives digest %s, the point's run %s", p.Replay, got, want)
	}

	// matrix and sweep with budgets: every run of the batch is cut by them,
	// and every replay line carries them and gives the cut run back.
	db, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	budget := []string{"--max-events", "40", "--max-time", "3s"}
	out, _ = runCLI(t, exitOK, append([]string{"matrix", "double-billing", "--seeds", "3", "--format", "json"}, budget...)...)
	m = report.MatrixDoc{}
	decode(t, "matrix with budgets", out, &m)
	lines = 0
	for k, c := range m.Cells {
		if c.RunsUnfinished != c.Runs {
			t.Errorf("matrix --max-events 40 %s: %d of %d runs unfinished, want all", c.Row, c.RunsUnfinished, c.Runs)
		}
		if c.Replay == "" {
			continue
		}
		lines++
		if !strings.HasSuffix(c.Replay, " --max-events 40 --max-time 3s") {
			t.Errorf("matrix %s: replay %q lacks the budgets", c.Row, c.Replay)
		}
		set := db.Expect[k].Settings(db)
		set.MaxEvents, set.MaxTime = 40, 3000
		if got, want := runLine(t, c.Replay).Results[0].Digest, digestOf(t, db, set, seedOf(t, c.Replay)); got != want {
			t.Errorf("matrix %s: replay %q gives digest %s, the row's run %s", c.Row, c.Replay, got, want)
		}
	}
	if lines == 0 {
		t.Error("matrix with budgets printed no replay line")
	}
	out, _ = runCLI(t, exitOK, append([]string{"sweep", "double-billing", "--vary", "ttl=1s:2s:1s", "--seeds", "2", "--format", "json"}, budget...)...)
	sw = report.SweepDoc{}
	decode(t, "sweep with budgets", out, &sw)
	for _, p := range sw.Points {
		if p.RunsUnfinished != p.Runs || p.Replay == "" {
			t.Errorf("sweep --max-events 40 ttl=%s: %d of %d runs unfinished, replay %q", p.Value, p.RunsUnfinished, p.Runs, p.Replay)
			continue
		}
		if !strings.HasSuffix(p.Replay, " --max-events 40 --max-time 3s") {
			t.Errorf("sweep ttl=%s: replay %q lacks the budgets", p.Value, p.Replay)
		}
		set := scenarios.Settings{Semantics: sim.Idempotent, Ops: db.Ops, Faults: db.Faults, Params: map[string]string{"ttl": p.Value}, MaxEvents: 40, MaxTime: 3000}
		if got, want := runLine(t, p.Replay).Results[0].Digest, digestOf(t, db, set, seedOf(t, p.Replay)); got != want {
			t.Errorf("sweep ttl=%s: replay %q gives digest %s, the point's run %s", p.Value, p.Replay, got, want)
		}
	}

	// explore: the counterexample's command saves a plan whose replay is
	// the counterexample.
	out, _ = runCLI(t, exitOK, "explore", "double-billing", "--semantics", "idem", "--set", "store=memory", "--max-faults", "2", "--max-memory", "64 MiB", "--timing=false", "--format", "json")
	var ex struct {
		Counterexample *report.Counterexample `json:"counterexample"`
	}
	decode(t, "explore", out, &ex)
	if ex.Counterexample == nil {
		t.Fatalf("explore found no counterexample:\n%s", out)
	}
	search, replay, ok := strings.Cut(ex.Counterexample.Replay, " && ")
	if !ok {
		t.Fatalf("explore's replay is not 'explore … && once replay …': %q", ex.Counterexample.Replay)
	}
	if !strings.Contains(search, " --max-memory 64MiB ") {
		t.Errorf("explore's search line drops --max-memory: %q", search)
	}
	cex := filepath.Join(dir, "cex.plan")
	runCLI(t, exitOK, replayArgs(t, strings.ReplaceAll(search, "cex.plan", cex))...)
	out, _ = runCLI(t, exitOK, append(replayArgs(t, strings.ReplaceAll(replay, "cex.plan", cex)), "--format", "json")...)
	decode(t, "explore replay", out, &replayed)
	if replayed.Results[0].Digest != ex.Counterexample.Digest {
		t.Errorf("explore: %q replays digest %s, the counterexample %s", ex.Counterexample.Replay, replayed.Results[0].Digest, ex.Counterexample.Digest)
	}
}

// TestSemanticsGivenTwice: two names of one semantics are rejected, naming
// it, instead of running it twice.
func TestSemanticsGivenTwice(t *testing.T) {
	for _, list := range []string{"amo,amo", "amo,at-most-once", "idem,alo,at-least-once+idempotent"} {
		out, stderr := runCLI(t, exitUsage, "run", "double-billing", "--semantics", list)
		if out != "" || !strings.Contains(stderr, "given twice") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--semantics %s: stdout %q, stderr %q", list, out, stderr)
		}
	}
}

// TestBudgetZeroRejected: --max-events 0 and --max-time 0 are rejected
// with the range, instead of silently meaning the default.
func TestBudgetZeroRejected(t *testing.T) {
	for _, c := range []struct{ flag, value, want string }{
		{"--max-events", "0", "want a count in [1, 1000000000]"},
		{"--max-events", "-5", "want a count in [1, 1000000000]"},
		{"--max-time", "0s", "want a positive duration"},
	} {
		_, stderr := runCLI(t, exitUsage, "run", "double-billing", c.flag, c.value)
		if !strings.Contains(stderr, c.flag+" "+c.value+": "+c.want) {
			t.Errorf("%s %s: stderr %q", c.flag, c.value, stderr)
		}
	}
	runCLI(t, exitOK, "run", "double-billing", "--max-events", "1") // the smallest budget is fine
}
