//go:build integration

package live

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// agreementSubset is CI's small subset of make live-agreement: the race
// of lock=none, the key store outage (fail open and fail closed), and a
// crash between the charge and the key (the restart from the database),
// and an ambiguous provider call retried under a new key (the call
// deadline, late answers).
var agreementSubset = []string{
	"concurrent-same-key idem lock=none",
	"store-outage-fail-closed idem on-store-down=fail-open",
	"store-outage-fail-closed idem on-store-down=fail-closed",
	"mark-after-effect idem mark=after",
	"ambiguous-external-outcome idem on-timeout=retry-new-key",
}

// TestIntegrationAgreementSubset runs the subset on two seeds, on SQLite
// and on PostgreSQL (which CI must have: without ONCE_TEST_POSTGRES the
// PostgreSQL half fails under CI=true): per-operation effects agree with
// the simulator on at least 95 % of the operations — the bar of make
// live-agreement — and the report lists every disagreement with its seed
// and where the two runs part.
func TestIntegrationAgreementSubset(t *testing.T) {
	var variants []Variant
	for _, v := range Variants() {
		for _, name := range agreementSubset {
			if v.String() == name {
				variants = append(variants, v)
			}
		}
	}
	if len(variants) != len(agreementSubset) {
		t.Fatalf("the subset's variants are gone from Variants: %v", variants)
	}
	for _, db := range []string{"SQLite", "PostgreSQL"} {
		t.Run(db, func(t *testing.T) {
			a := &Agreement{Binary: onceBinary, Tick: 2 * time.Millisecond, Seeds: 2, Jobs: 2}
			if db == "PostgreSQL" {
				a.DSN, a.NoSQLite = postgresDSN(t), true
			}
			if err := a.Run(context.Background(), variants); err != nil {
				t.Fatal(err)
			}
			ops, agree := a.Total()
			var b bytes.Buffer
			a.WriteMarkdown(&b, "the test")
			if ops == 0 || 100*agree < 95*ops {
				t.Fatalf("%d of %d operations agree, want at least 95 %%:\n%s", agree, ops, b.String())
			}
			if len(a.Disagreements) > 0 && !strings.Contains(b.String(), "| op-") {
				t.Fatalf("a disagreement is not listed:\n%s", b.String())
			}
			for _, r := range a.Rows {
				if r.DB != db {
					t.Fatalf("a row on %s in the %s half", r.DB, db)
				}
			}
			t.Logf("%s: %d of %d operations agree", db, agree, ops)
			if len(a.Disagreements) > 0 {
				t.Logf("the report:\n%s", b.String())
			}
		})
	}
}
