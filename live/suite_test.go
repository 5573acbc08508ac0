package live

import (
	"strings"
	"testing"

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
