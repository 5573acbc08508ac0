package lab_test

import (
	"strings"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// The lab judges a run by the scenario's row for the played settings,
// the played node's own parameters aside, preferring the row that asks
// most of the node.
func TestJudgeForPicksTheRow(t *testing.T) {
	const receipts = ", and one-receipt: a retry is answered with the stored response, the same transaction id"
	cases := []struct {
		scenario string
		set      map[string]string
		against  string
		broken   bool
	}{
		{"key-reuse-different-payload", nil, "row `idem` of key-reuse-different-payload (≤1 refused invariants)" + receipts, false},
		{"key-reuse-different-payload", map[string]string{"reuse": "overwrite"}, "row `idem` of key-reuse-different-payload (≤1 refused invariants)" + receipts, false},
		{"new-key-per-retry", nil, "row `idem` of new-key-per-retry (dup ≥1)", true},
		{"new-key-per-retry", map[string]string{"key": "per-operation"}, "row `idem key=per-operation` of new-key-per-retry (=1)" + receipts, false},
		{"concurrent-same-key", nil, "row `idem lock=unique-insert` of concurrent-same-key (=1)" + receipts, false},
		{"double-billing", map[string]string{"no-such": "x"}, "the promise =1 (no row of double-billing matches these parameters)", false},
	}
	for _, c := range cases {
		sc, err := scenarios.Lookup(c.scenario)
		if err != nil {
			t.Fatal(err)
		}
		l := &lab.Lab{Scenario: sc, Settings: scenarios.Settings{Ops: sc.Ops, Faults: sc.Faults, Params: c.set},
			Commands: map[string][]string{"service": {"/bin/true"}}}
		j := l.JudgeFor(sim.Idempotent)
		if got := j.Against(); got != c.against {
			t.Errorf("%s %v: judged against %q, want %q", c.scenario, c.set, got, c.against)
		}
		if j.Receipts != strings.HasSuffix(c.against, receipts) {
			t.Errorf("%s %v: one-receipt judged %v, want %v", c.scenario, c.set, j.Receipts, !j.Receipts)
		}
		if got := j.Broken() != ""; got != c.broken {
			t.Errorf("%s %v: broken note %q, want one: %v", c.scenario, c.set, j.Broken(), c.broken)
		}
	}
}

// one-receipt is judged where a payment service is played and the client
// sends a key; a consumer, and at-least-once, are judged as before.
func TestReceiptsJudgedForKeyedPayments(t *testing.T) {
	cases := []struct {
		scenario, node string
		sem            sim.Semantics
		want           bool
	}{
		{"double-billing", "service", sim.Idempotent, true},
		{"double-billing", "service", sim.AtLeastOnce, false},
		{"new-key-per-retry", "service", sim.Idempotent, false}, // its row expects a new receipt per retry
		{"at-least-once-duplicate", "consumer", sim.Idempotent, false},
	}
	for _, c := range cases {
		sc, err := scenarios.Lookup(c.scenario)
		if err != nil {
			t.Fatal(err)
		}
		l := &lab.Lab{Scenario: sc, Settings: scenarios.Settings{Ops: sc.Ops, Faults: sc.Faults},
			Commands: map[string][]string{c.node: {"/bin/true"}}}
		if got := l.JudgeFor(c.sem).Receipts; got != c.want {
			t.Errorf("%s %s: one-receipt judged %v, want %v", c.scenario, c.sem.Alias(), got, c.want)
		}
	}
}
