package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// answers counts the function's answers by status.
type answers map[int32]int

func (a answers) Record(e *sim.Event) {
	if e.Kind == sim.EvSend && e.Msg.Kind == payments.MsgPayResponse {
		a[e.Msg.Status]++
	}
}

// TestRecordStuckInProgress: idempotency-record-in-progress over seeds
// 1..50, under the three settings of its rows. A slow charge outlives the
// function's timeout in some run of each. Without an in-progress expiry
// the retries are answered 409 (IdempotencyAlreadyInProgressError) and
// some operation ends charged with no order; with it a retry runs the
// handler again, charging twice against a plain gateway and once against
// one that deduplicates by the key.
func TestRecordStuckInProgress(t *testing.T) {
	sc, err := scenarios.Lookup("idempotency-record-in-progress")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		params                     map[string]string
		want409, wantPartial, dups bool
	}{
		{map[string]string{}, true, true, false},
		{map[string]string{"context": "registered"}, false, false, true},
		{map[string]string{"context": "registered", "provider": "idempotent", "attempts": "0"}, false, false, false},
	} {
		a := answers{}
		partial, dups := 0, 0
		for seed := uint64(1); seed <= 50; seed++ {
			o, err := runs.Outcome(sc, scenarios.Settings{Semantics: sim.Idempotent, Ops: sc.Ops, Faults: sc.Faults, Params: c.params}, sim.NewRandom(seed), a)
			if err != nil {
				t.Fatal(err)
			}
			partial += o.Count(sim.Lost)
			if o.MaxEffects() > 1 {
				dups++
			}
		}
		if got := a[409] > 0; got != c.want409 {
			t.Errorf("%v: %d answers 409, want some: %v", c.params, a[409], c.want409)
		}
		if got := partial > 0; got != c.wantPartial {
			t.Errorf("%v: %d operations charged without an order, want some: %v", c.params, partial, c.wantPartial)
		}
		if got := dups > 0; got != c.dups {
			t.Errorf("%v: %d runs charged twice, want some: %v", c.params, dups, c.dups)
		}
	}
}
