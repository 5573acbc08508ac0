package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReplayOnePlanUnderEverySemantics: `once replay PLAN --semantics all`
// applies the one saved plan to every semantics: each lists the plan's
// fault, at-least-once charges twice, the idempotent client once.
func TestReplayOnePlanUnderEverySemantics(t *testing.T) {
	plan := filepath.Join(t.TempDir(), "p.plan")
	if code, _, errOut := runOnce("run", "double-billing", "--semantics", "alo", "--seed", "2", "--ops", "2", "--save", plan); code != 0 {
		t.Fatalf("run --save: exit %d: %s", code, errOut)
	}
	code, out, errOut := runOnce("replay", plan, "--semantics", "all", "--format", "json")
	if code != 0 {
		t.Fatalf("replay --semantics all: exit %d: %s", code, errOut)
	}
	var doc struct {
		Results []struct {
			Alias      string   `json:"alias"`
			Duplicated int      `json:"duplicated"`
			FaultPlan  []string `json:"fault_plan"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var aliases []string
	for _, r := range doc.Results {
		aliases = append(aliases, r.Alias)
		if !slices.Equal(r.FaultPlan, doc.Results[0].FaultPlan) || len(r.FaultPlan) != 1 {
			t.Errorf("%s met faults %v, want the plan's one fault %v", r.Alias, r.FaultPlan, doc.Results[0].FaultPlan)
		}
		if want := r.Alias == "alo"; (r.Duplicated > 0) != want {
			t.Errorf("%s: %d duplicated", r.Alias, r.Duplicated)
		}
	}
	if strings.Join(aliases, ",") != "amo,alo,idem" {
		t.Errorf("replayed under %v, want amo, alo, idem", aliases)
	}
	if code, _, errOut := runOnce("replay", plan, "--semantics", "txn"); code != 2 || !strings.Contains(errOut, "supports amo, alo, idem") {
		t.Errorf("replay --semantics txn: exit %d, %q", code, errOut)
	}
}
