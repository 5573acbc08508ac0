package live

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Every row of every suite is a catalog scenario live runs against a
// --target service (with --restart-cmd for the crash rows), under the
// faults it names: a row live would refuse fails here, not at a user's.
func TestSuiteRowsRunAgainstATarget(t *testing.T) {
	for name, rows := range Suites {
		for _, c := range rows {
			sc, err := scenarios.Lookup(c.Scenario)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			set := c.Settings(sc)
			for k, p := range c.Faults {
				if set.Faults.Probability[k] != p {
					t.Errorf("%s %s: %s %v, want %v", name, c.Scenario, k, set.Faults.Probability[k], p)
				}
			}
			cfg, err := sc.Config(set)
			if err != nil {
				t.Fatalf("%s %s: %v", name, c.Scenario, err)
			}
			if err := CheckAll(sc, []Planned{{Settings: set, Config: cfg}}, true, c.Restart); err != nil {
				t.Errorf("%s row %s: %v", name, c.Tests, err)
			}
		}
	}
}

func TestCheckSuiteRefusesInOneLine(t *testing.T) {
	for _, c := range []struct {
		name, target string
		seeds        int
		args, flags  []string
		want         string
	}{
		{"nope", "http://127.0.0.1:1", 1, nil, nil, `--suite "nope": want one of payments`},
		{"", "http://127.0.0.1:1", 2, nil, []string{"seeds"}, "--seeds goes with --suite"},
		{"payments", "", 1, nil, nil, "goes with --target"},
		{"payments", "http://127.0.0.1:1", 0, nil, nil, "--seeds 0"},
		{"payments", "http://127.0.0.1:1", 1, []string{"double-billing"}, nil, "give no SCENARIO"},
		{"payments", "http://127.0.0.1:1", 1, nil, []string{"target", "loss"}, "--loss is set by each row"},
		{"payments", "http://127.0.0.1:1", 1, nil, []string{"set"}, "--set is set by each row"},
	} {
		err := CheckSuite(c.name, c.target, c.seeds, c.args, c.flags)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("CheckSuite(%q, %q, %d, %v, %v) = %v, want one line with %q", c.name, c.target, c.seeds, c.args, c.flags, err, c.want)
		}
	}
	if err := CheckSuite("payments", "http://127.0.0.1:1", 5, nil, []string{"target", "seeds", "restart-cmd", "db"}); err != nil {
		t.Errorf("a suite with its own flags: %v", err)
	}
}

func TestSuiteStatusAndStorms(t *testing.T) {
	rows := []SuiteRow{{Status: sim.Held}, {Status: sim.Unknown}, {Skipped: true, Status: sim.Held}}
	if got := SuiteStatus(rows); got != sim.Unknown {
		t.Errorf("a row cut: %s, want unknown", got)
	}
	rows = append(rows, SuiteRow{Status: sim.Violated})
	if got := SuiteStatus(rows); got != sim.Violated {
		t.Errorf("a row violated: %s, want violated", got)
	}
	tr := &sim.Trace{}
	for i := 0; i < 3; i++ {
		tr.Record(&sim.Event{Kind: sim.EvSend, Msg: sim.Message{Op: 2, Status: 409}})
	}
	tr.Record(&sim.Event{Kind: sim.EvSend, Msg: sim.Message{Op: 1, Status: 409}})
	tr.Record(&sim.Event{Kind: sim.EvSend, Msg: sim.Message{Op: 1, Status: 201}})
	if op, n := worstConflicts(tr); op != 2 || n != 3 {
		t.Errorf("worstConflicts = op-%d ×%d, want op-2 ×3", op, n)
	}
}

// The replay line of a --target run runs once live against the same
// service, with the restart command quoted for the shell and the
// passwords masked.
func TestLiveCommand(t *testing.T) {
	o := Options{Target: "http://u:secret@127.0.0.1:8001", ProviderAddr: "127.0.0.1:5000", RestartCmd: "restart.sh 'a b'", DSN: "postgres://p:pw@h/db"}
	got := LiveCommand("once run double-billing --semantics idem --seed 3 --ops 5", o)
	want := `once live double-billing --semantics idem --seed 3 --ops 5 --target 'http://u:***@127.0.0.1:8001' --provider-addr 127.0.0.1:5000 --restart-cmd 'restart.sh '\''a b'\''' --db 'postgres://p:***@h/db'`
	if got != want {
		t.Errorf("LiveCommand =\n%s\nwant\n%s", got, want)
	}
	if got := LiveCommand("once replay cex.plan", Options{}); got != "once live --replay cex.plan" {
		t.Errorf("a plan's: %s", got)
	}
	if got := LiveCommand("once replay cex.plan", Options{Tick: 100 * time.Microsecond}); got != "once live --replay cex.plan --tick 0.1" {
		t.Errorf("a run at --tick 0.1: %s", got)
	}
	if got := LiveCommand("once replay cex.plan", Options{Tick: time.Millisecond}); got != "once live --replay cex.plan" {
		t.Errorf("a run at the default tick: %s", got)
	}
}

// A --set that chooses once's own service's code is refused against a
// target: it would be accepted and mean nothing.
func TestTargetRefusesServiceParams(t *testing.T) {
	sc, err := scenarios.Lookup("key-reuse-different-payload")
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sim.Idempotent, Ops: 3, Faults: sc.Faults, Params: map[string]string{"reuse": "overwrite"}}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	ps := []Planned{{Settings: set, Config: cfg}}
	if err := CheckAll(sc, ps, true, false); err == nil || !strings.Contains(err.Error(), "--set reuse=overwrite: with --target") {
		t.Errorf("--set reuse=overwrite with --target: %v", err)
	}
	if err := CheckAll(sc, ps, false, false); err != nil {
		t.Errorf("--set reuse=overwrite with once's own service: %v", err)
	}
}

// The double click runs against a target (the service's own store steps
// are its business: the verdict is the provider's charges), with no
// preempt, which once cannot do to your process; the store outage stays
// refused (the key store that goes down is once's own).
func TestSupportsTargetDoubleClickNotStoreOutage(t *testing.T) {
	for _, c := range []struct {
		scenario string
		faults   map[sim.FaultKind]float64
		want     string // "" = runs
	}{
		{"concurrent-same-key", map[sim.FaultKind]float64{sim.FaultPreempt: 0}, ""},
		{"concurrent-same-key", nil, "--preempt"},
		{"store-outage-fail-closed", map[sim.FaultKind]float64{sim.FaultCrash: 0}, "key store outage"},
	} {
		sc, err := scenarios.Lookup(c.scenario)
		if err != nil {
			t.Fatal(err)
		}
		set := SuiteCase{Scenario: c.scenario, Faults: c.faults}.Settings(sc)
		cfg, err := sc.Config(set)
		if err != nil {
			t.Fatal(err)
		}
		err = SupportsTarget(cfg, &set.Faults, false)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v with --target: %v, want it runs", c.scenario, c.faults, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %v with --target: %v, want refused with %q", c.scenario, c.faults, err, c.want)
		}
	}
}

// --format with --suite: text and json are honoured, trace (the timeline
// of one run) is refused in one line naming the replay line; the flags a
// suite refuses for a reason of their own say that reason.
func TestSuiteRunCheckFormatAndRefusals(t *testing.T) {
	base := SuiteRun{Name: "payments", Target: "http://127.0.0.1:1", Seeds: 1}
	for _, f := range []string{"", "text", "json"} {
		s := base
		s.Format = f
		if err := s.Check(); err != nil {
			t.Errorf("--format %q: %v, want honoured", f, err)
		}
	}
	for flag, want := range map[string]string{"format=trace": "replay line", "format=xml": "want text or json",
		"save": "replay line", "replay": "without --suite", "broker": "not a broker", "file": "its own catalog scenarios"} {
		s := base
		name, value, _ := strings.Cut(flag, "=")
		if value != "" {
			s.Format = value
		} else {
			s.Changed = []string{"target", name}
		}
		err := s.Check()
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--"+name) || strings.Contains(err.Error(), "\n") {
			t.Errorf("--suite with --%s: %v, want one line with %q", flag, err, want)
		}
	}
}

// The JSON of a suite names every row, what ran, the failing seeds with
// their charge ids and replay lines, the storms, and the verdict (unknown
// when the suite was cut short with nothing violated).
func TestWriteSuiteJSON(t *testing.T) {
	rows := []SuiteRow{
		{Case: Suites["payments"][0], Status: sim.Violated, Failures: []SuiteFailure{{Seed: 2, Status: sim.Violated,
			Ops: []string{"op-2: 8821, 8822"}, Replay: "once live double-billing --seed 2"}}},
		{Case: Suites["payments"][1], Status: sim.Held, Storms: []SuiteStorm{{Seed: 1, Op: 3, N: 7}}},
		{Case: SuiteCase{Scenario: "in-memory-dedup-restart", Tests: "restart", Restart: true}, Status: sim.Held, Skipped: true},
	}
	var b strings.Builder
	if err := WriteSuiteJSON(&b, "payments", "http://u:secret@127.0.0.1:8000", 1, 2, rows, nil); err != nil {
		t.Fatal(err)
	}
	var doc suiteDoc
	if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	if doc.Verdict != "violated" || len(doc.Rows) != 3 || len(doc.Seeds) != 2 || strings.Contains(doc.Target, "secret") {
		t.Fatalf("doc = %+v", doc)
	}
	r0, r1, r2 := doc.Rows[0], doc.Rows[1], doc.Rows[2]
	if r0.Row != "lost" || len(r0.Failures) != 1 || r0.Failures[0].Ops[0] != "op-2: 8821, 8822" || r0.Failures[0].Replay == "" ||
		strings.Join(r0.Params, " ") != "--ack-loss 0.3 --loss 0.3" {
		t.Errorf("the failing row: %+v", r0)
	}
	if len(r1.Storms) != 1 || r1.Storms[0].N != 7 || r1.Verdict != "held" {
		t.Errorf("the storm row: %+v", r1)
	}
	if r2.Run || r2.Verdict != "not run" || !r2.Restart {
		t.Errorf("the skipped row: %+v", r2)
	}
	b.Reset()
	if err := WriteSuiteJSON(&b, "payments", "http://127.0.0.1:8000", 1, 1, rows[1:], errors.New("live: interrupted")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"verdict": "unknown"`) || !strings.Contains(b.String(), `"error": "live: interrupted"`) {
		t.Errorf("a suite cut short with nothing violated:\n%s", b.String())
	}
}

// A suite cut short (Ctrl-C, a target gone) never says held: the rows
// done so far are written, and the verdict is unknown.
func TestWriteSuiteCutIsNotHeld(t *testing.T) {
	var b strings.Builder
	WriteSuite(&b, "payments", 1, 5, []SuiteRow{{Case: Suites["payments"][0], Status: sim.Held}}, true)
	if !strings.Contains(b.String(), "suite verdict: unknown") {
		t.Errorf("a cut suite:\n%s", b.String())
	}
}

// --rows picks rows by their names; a name the suite does not have is
// refused with the names it has; --rows without --suite is refused.
func TestSuiteRunRows(t *testing.T) {
	s := SuiteRun{Name: "payments", Target: "http://127.0.0.1:1", Seeds: 1, Rows: []string{"lease", "reuse"}}
	if err := s.Check(); err != nil {
		t.Errorf("--rows lease,reuse: %v", err)
	}
	s.Rows = []string{"lease", "nope"}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), `no row "nope"`) || !strings.Contains(err.Error(), "double_click") {
		t.Errorf("--rows lease,nope: %v, want the unknown row and the suite's rows", err)
	}
	if err := CheckSuite("", "http://127.0.0.1:1", 5, nil, []string{"rows"}); err == nil || !strings.Contains(err.Error(), "--rows goes with --suite") {
		t.Errorf("--rows without --suite: %v", err)
	}
	if got := RowNames("payments"); len(got) != len(Suites["payments"]) || got[5] != "double_click" {
		t.Errorf("RowNames = %v", got)
	}
}

// A seed that held only through a storm of 409 answers fails its row: the
// suite says violated (exit 1), names the operation and how often, and
// prints the seed's replay line; a seed with a few 409s (the double
// click's) holds.
func TestRetryStormFailsTheRow(t *testing.T) {
	storm := &sim.Trace{}
	for i := 0; i < StormAnswers+1; i++ {
		storm.Record(&sim.Event{Kind: sim.EvSend, Msg: sim.Message{Op: 3, Status: 409}})
	}
	calm := &sim.Trace{}
	for i := 0; i < StormAnswers; i++ {
		calm.Record(&sim.Event{Kind: sim.EvSend, Msg: sim.Message{Op: 3, Status: 409}})
	}
	row := SuiteRow{Case: Suites["payments"][7], Status: sim.Held}
	row.add(1, runs.Run{Outcome: &sim.Outcome{Status: sim.Held}, Trace: calm, Replay: "once live double-billing --seed 1"})
	if row.Status != sim.Held || len(row.Storms) != 0 {
		t.Fatalf("%d answers 409: %+v, want held", StormAnswers, row)
	}
	row.add(2, runs.Run{Outcome: &sim.Outcome{Status: sim.Held}, Trace: storm, Replay: "once live double-billing --seed 2"})
	if row.Status != sim.Violated || len(row.Storms) != 1 || row.Storms[0].N != StormAnswers+1 {
		t.Fatalf("%d answers 409: %+v, want violated with the storm", StormAnswers+1, row)
	}
	var b strings.Builder
	WriteSuite(&b, "payments", 1, 2, []SuiteRow{row}, false)
	for _, want := range []string{"violated: a retry storm (> 10 answers 409)", "seed 2: op-3 answered 409 11 times",
		"replay: once live double-billing --seed 2", "suite verdict: violated"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table has no %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "op-op-") {
		t.Errorf("an operation named twice:\n%s", b.String())
	}
}
