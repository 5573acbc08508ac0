package brokers

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestBrokerAgreementDoc: docs/broker-agreement.md is what the recorded
// results of make broker-agreement render to, the record's rows are
// today's cases (a new or changed case needs a new measurement), and every
// disagreement has a documented reason.
func TestBrokerAgreementDoc(t *testing.T) {
	b, err := os.ReadFile("testdata/broker-agreement.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec AgreementRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if err := rec.Refresh(AgreementCases()); err != nil {
		t.Fatalf("the record is stale (run make broker-agreement): %v", err)
	}
	for _, u := range rec.Unexplained() {
		t.Error(u)
	}
	for _, res := range rec.Results {
		if res.Runs != rec.Seeds {
			t.Errorf("%s on %s: %d runs, want %d (one per seed)", res.Case, res.Case.Broker, res.Runs, rec.Seeds)
		}
		failedOps := len(res.Failed) * (res.Ops / max(res.Runs, 1)) // a run that did not complete: none of its operations agrees
		if res.Agree+len(res.Disagreements)+failedOps != res.Ops {
			t.Errorf("%s on %s: %d agree + %d disagreements + %d of failed runs ≠ %d operations", res.Case, res.Case.Broker, res.Agree, len(res.Disagreements), failedOps, res.Ops)
		}
		if r := res.Run; r == nil || r.Date == "" || r.Commit == "" || r.Seeds != res.Runs {
			t.Errorf("%s on %s: no provenance, or not of its %d runs: %+v", res.Case, res.Case.Broker, res.Runs, r)
		} else if !r.Recorded && res.Seconds == 0 {
			t.Errorf("%s on %s: measured by the run of %s without its wall time", res.Case, res.Case.Broker, r.Date)
		}
		if len(res.Failed) > 0 && res.Case.FailedWhy == "" {
			t.Errorf("%s on %s: %d runs did not complete, and the row says nothing of why", res.Case, res.Case.Broker, len(res.Failed))
		}
	}
	var want bytes.Buffer
	rec.WriteMarkdown(&want)
	got, err := os.ReadFile("../docs/broker-agreement.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("docs/broker-agreement.md is not what the record renders to: run go run ./brokers/agreement -render (wording) or make broker-agreement (a new measurement)")
	}
}

// TestAgreementCasesRunWhatTheyName: each case resolves to its broker's
// driver, its variant is one the driver runs, and the faults left on are
// exactly the kinds the driver applies.
func TestAgreementCasesRunWhatTheyName(t *testing.T) {
	for _, c := range AgreementCases() {
		sc, set, applied, err := c.settings()
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := sc.Config(set)
		if err != nil {
			t.Fatal(err)
		}
		d := driverFor(cfg, c.Broker)
		if vs := d.variants(cfg.Semantics); c.Variant != "" && (len(vs) == 0 || !contains(vs, c.Variant)) {
			t.Errorf("%s: variant %q not among %v", c, c.Variant, vs)
		}
		for k, p := range set.Faults.Probability {
			on := false
			for _, a := range applied {
				on = on || int(a) == k
			}
			if !on && p != 0 {
				t.Errorf("%s: fault kind %d not applied on %s but left at %g", c, k, c.Broker, p)
			}
		}
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestSelectCases: -only and -broker pick the rows make broker-agreement
// runs; the record keeps the others.
func TestSelectCases(t *testing.T) {
	all := AgreementCases()
	names := func(cs []AgreementCase) (s []string) {
		for _, c := range cs {
			s = append(s, c.String()+" on "+string(c.Broker))
		}
		return s
	}
	for _, c := range []struct {
		only   string
		broker Kind
		want   []string
	}{
		{"nats-msg-id-window alo", "", []string{"nats-msg-id-window alo on nats"}},
		{"retry=3m", NATS, []string{"nats-msg-id-window idem retry=3m on nats", "nats-msg-id-window idem dedup=msg-id,retry=3m on nats"}},
		{" idem", KFake, []string{"idempotent-producer-retry idem on kfake", "idempotent-producer-retry idem idempotence=false on kfake"}},
		{"nats-msg-id-window", Redis, nil},
	} {
		if got := names(SelectCases(all, c.only, c.broker)); !slices.Equal(got, c.want) {
			t.Errorf("-only %q -broker %q: %q, want %q", c.only, c.broker, got, c.want)
		}
	}
	if got := SelectCases(all, "", ""); len(got) != len(all) {
		t.Errorf("no filter: %d of %d rows", len(got), len(all))
	}
}
