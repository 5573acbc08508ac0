package scenarios

import (
	"os"
	"strings"
	"testing"
)

// TestCatalogIsNotVacuous: every catalog scenario passes once validate's
// vacuity checks (issue 29 item 9), and so do the hand-written files the
// tests load as valid.
func TestCatalogIsNotVacuous(t *testing.T) {
	for _, sc := range All() {
		if err := sc.CheckVacuity(); err != nil {
			t.Errorf("%s: %v", sc.Name, err)
		}
	}
	for _, f := range []string{"../testdata/scenarios/valid/mobile-checkout.yaml", "../testdata/scenarios/valid/queue-partition.yaml"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := Load(f, data)
		if err == nil {
			err = sc.CheckVacuity()
		}
		if err != nil {
			t.Errorf("%v", err)
		}
	}
}

// TestVacuousClaimsRefused: the three vacuous forms, each refused in one
// line naming the file, the line and column of the culprit, and why.
func TestVacuousClaimsRefused(t *testing.T) {
	for _, c := range []struct{ file, from, to, want string }{
		// An every-run claim with neither unprotected nor inherent: the claim is named.
		{"double-billing", `show: ["=1"], unprotected: {key: per-attempt}, explore: 3`, `show: ["=1"], explore: 3`,
			`bad.yaml:50:30: expect.show: =1 is claimed of every run, but the row names neither unprotected: {…} (the setting that breaks it) nor inherent: "…" (why nothing can)`},
		// A switch to a parameter's default: the row's own value.
		{"double-billing", `unprotected: {key: per-attempt}`, `unprotected: {key: per-operation}`,
			`bad.yaml:50:56: expect.unprotected: {key=per-operation} changes nothing: the parameters resolve to the row's own values and the faults are the row's`},
		// A fault kind with no place to strike.
		{"double-billing", `unprotected: {key: per-attempt}`, `unprotected: {preempt: 0.5}`,
			`bad.yaml:50:60: expect.unprotected: {preempt=0.5} changes nothing: the parameters are the row's, and preempt has no store operation to preempt (no store node)`},
		// A receipt invariant where the client accepts no response.
		{"at-least-once-duplicate", "\nexpect:", "\ninvariants: [one-receipt]\n\nexpect:",
			`bad.yaml:43:14: invariants: one-receipt reads the responses an HTTP client accepts (roles http-client, rest-client, backoff-client); this scenario's client broker is a broker, which accepts none`},
	} {
		base, err := os.ReadFile("catalog/" + c.file + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		text := string(base)
		if strings.Count(text, c.from) != 1 {
			t.Fatalf("%s no longer has %q once", c.file, c.from)
		}
		sc, err := Load("bad.yaml", []byte(strings.Replace(text, c.from, c.to, 1)))
		if err != nil {
			t.Fatalf("%s → %s: the loader refuses it (%v); only validate should", c.from, c.to, err)
		}
		err = sc.CheckVacuity()
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s → %s:\n got %v\nwant %s…", c.from, c.to, err, c.want)
		}
	}
}
