package scenarios_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// TestSymmetrySweepKeepsVerdicts is TestSymmetryReductionKeepsVerdicts
// without the dice: it searches every double-billing configuration of a
// grid that the symmetry reduction accepts, with and without the
// reduction, and wants the same verdict, the same completeness and the
// same counterexample (Choices), never more states stored, no merge the
// audit finds unsound, and the reduction to rename what the roles
// declare (operations, issued ids and, unless the client stops at
// max-attempts, attempt numbers).
//
// The grid, 13 608 configurations each searched twice: the three
// semantics; the client as the catalog has it, with a double click
// (clicks=2: two attempts leave at once) and with max-attempts=2 (its
// attempts then not shifted) — double-billing exposes neither, so a copy
// of the scenario that does; the timeout the default (1s) and 100ms,
// shorter than a round trip, so that several attempts of one payment are
// in flight at once without a fault; every provider (plain, lookup,
// idempotent) and interval (0, 30ms, 100ms); under the idempotent
// semantics every store (durable, memory), mark (before, after) and ttl
// (0, 500ms), which the other two do not read (they keep the defaults);
// fault kinds loss, ack-loss and loss,ack-loss,dup, and ack-loss,crash
// and loss,ack-loss,crash where the reduction stays on with crashes (an
// in-memory key store, or a semantics whose restart does nothing); 2 and
// 3 operations; 0, 1 and 3 faults at most. The key is per-operation:
// the others turn the reduction off.
func TestSymmetrySweepKeepsVerdicts(t *testing.T) {
	clicks := doubleClickBilling(t)
	configs, merged := 0, 0
	for _, c := range symmetrySweep() {
		sc, err := scenarios.Lookup("double-billing")
		if err != nil {
			t.Fatal(err)
		}
		if c.params["clicks"] != "" || c.params["max-attempts"] != "" {
			sc = clicks
		}
		faults, _, err := scenarios.ExploreFaults(c.kinds)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := sc.Config(scenarios.Settings{Semantics: c.sem, Ops: c.ops, Faults: faults, Params: c.params})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("double-billing %s ops=%d faults=%s max-faults=%d %v", c.sem.Alias(), c.ops, c.kinds, c.maxFaults, c.params)
		opt := search.Options{MaxFaults: c.maxFaults, Promise: sim.ExactlyOne, MaxStates: 200_000}
		plain := opt
		plain.Reduce = search.ReduceNone
		want, err := search.Explore(cfg, plain)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		opt.Audit = true
		got, err := search.Explore(cfg, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		configs++
		switch {
		case !got.Symmetry:
			t.Errorf("%s: symmetry off: %v", name, got.SymmetryOff)
		case fmt.Sprint(got.SymmetryRenames) != fmt.Sprint(c.renames()):
			t.Errorf("%s: the reduction renames only %v", name, got.SymmetryRenames)
		case got.AuditFailure != "":
			t.Errorf("%s: unsound merge: %s", name, got.AuditFailure)
		case got.Holds != want.Holds || got.Complete != want.Complete || fmt.Sprint(got.Choices) != fmt.Sprint(want.Choices):
			t.Errorf("%s: with symmetry holds=%v complete=%v %v; without holds=%v complete=%v %v", name,
				got.Holds, got.Complete, got.Choices, want.Holds, want.Complete, want.Choices)
		case want.Complete && got.States > want.States:
			t.Errorf("%s: the reduction stored more states: %d > %d", name, got.States, want.States)
		}
		if got.States < want.States {
			merged++
		}
	}
	t.Logf("%d configurations searched with and without the reduction; %d stored fewer states with it", configs, merged)
	if merged == 0 {
		t.Error("the reduction merged nothing in the whole sweep")
	}
}

// doubleClickBilling is double-billing with the client's clicks as a
// param (catalog/double-billing.yaml, with one more param passed on).
func doubleClickBilling(t *testing.T) *scenarios.Scenario {
	t.Helper()
	data, err := os.ReadFile("catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	for old, repl := range map[string]string{
		"params:\n": "params:\n  - {name: clicks, type: int, min: 1, max: 10, default: \"1\", doc: \"requests sent at once\"}\n" +
			"  - {name: max-attempts, type: int, min: 0, max: 1000, default: \"0\", doc: \"attempts per payment (0 = until answered)\"}\n",
		"key: $key}":             "key: $key, clicks: $clicks, max-attempts: $max-attempts}",
		"name: double-billing\n": "name: double-billing-clicks\n",
	} {
		if !strings.Contains(src, old) {
			t.Fatalf("catalog/double-billing.yaml: no %q to patch", old)
		}
		src = strings.Replace(src, old, repl, 1)
	}
	sc, err := scenarios.Load("double-billing-clicks.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// sweepCase is one configuration of the sweep.
type sweepCase struct {
	sem       sim.Semantics
	params    map[string]string
	kinds     string
	ops       int
	maxFaults int
}

// symmetrySweep lists TestSymmetrySweepKeepsVerdicts's grid, in a fixed
// order.
func symmetrySweep() []sweepCase {
	var cases []sweepCase
	for _, sem := range []sim.Semantics{sim.AtMostOnce, sim.AtLeastOnce, sim.Idempotent} {
		for _, p := range sweepParams(sem) {
			kinds := []string{"loss", "ack-loss", "loss,ack-loss,dup"}
			if p["store"] == "memory" || sem != sim.Idempotent {
				kinds = append(kinds, "ack-loss,crash", "loss,ack-loss,crash")
			}
			for _, k := range kinds {
				for _, ops := range []int{2, 3} {
					for _, mf := range []int{0, 1, 3} {
						cases = append(cases, sweepCase{sem: sem, params: p, kinds: k, ops: ops, maxFaults: mf})
					}
				}
			}
		}
	}
	return cases
}

// renames is what the reduction must rename in c: the attempts too
// unless the client stops at max-attempts.
func (c sweepCase) renames() []string {
	if c.params["max-attempts"] != "" {
		return []string{"operations", "ids"}
	}
	return []string{"operations", "ids", "attempts"}
}

// sweepParams lists the params of sem's configurations in the sweep: the
// client's variants (clicks and max-attempts only in the scenario's copy
// that has them), and the service's and the gateway's where sem reads
// them.
func sweepParams(sem sim.Semantics) []map[string]string {
	var params []map[string]string
	clients := []map[string]string{{}, {"clicks": "2"}, {"max-attempts": "2"}}
	for _, client := range clients {
		for _, timeout := range []string{"1s", "100ms"} {
			for _, store := range []string{"durable", "memory"} {
				for _, mark := range []string{"before", "after"} {
					for _, provider := range []string{"plain", "lookup", "idempotent"} {
						for _, ttl := range []string{"0", "500ms"} {
							for _, interval := range []string{"0", "30ms", "100ms"} {
								if sem != sim.Idempotent && (store != "durable" || mark != "before" || ttl != "0") {
									continue // the key store, mark and ttl are read only under the idempotent semantics
								}
								p := map[string]string{"store": store, "mark": mark, "provider": provider, "ttl": ttl,
									"interval": interval, "key": "per-operation", "timeout": timeout}
								for k, v := range client {
									p[k] = v
								}
								params = append(params, p)
							}
						}
					}
				}
			}
		}
	}
	return params
}
