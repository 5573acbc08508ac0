//go:build integration

package live

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestIntegrationAgreementSubset is CI's small subset of make
// live-agreement: the race of lock=none and the fail-closed store outage,
// two seeds each, on SQLite; per-operation effects agree with the
// simulator on at least 90 % of the operations, and the report lists
// every disagreement with its seed.
func TestIntegrationAgreementSubset(t *testing.T) {
	var variants []Variant
	for _, v := range Variants() {
		if s := v.String(); s == "concurrent-same-key idem" || s == "store-outage-fail-closed idem on-store-down=fail-closed" {
			variants = append(variants, v)
		}
	}
	if len(variants) != 2 {
		t.Fatalf("the subset's variants are gone from Variants: %v", variants)
	}
	a := &Agreement{Binary: onceBinary, Tick: 2 * time.Millisecond, Seeds: 2}
	if err := a.Run(context.Background(), variants); err != nil {
		t.Fatal(err)
	}
	ops, agree := a.Total()
	var b bytes.Buffer
	a.WriteMarkdown(&b, "the test")
	if ops == 0 || 10*agree < 9*ops {
		t.Fatalf("%d of %d operations agree, want at least 90 %%:\n%s", agree, ops, b.String())
	}
	if len(a.Disagreements) > 0 && !strings.Contains(b.String(), "| op-") {
		t.Fatalf("a disagreement is not listed:\n%s", b.String())
	}
}
