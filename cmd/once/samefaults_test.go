package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// faultTarget is the message a fault line hits, with its occurrence:
// "loss from=service to=client msg=pay-response op=2 attempt=1
// occurrence=1" → ("service", "client", "pay-response", 2, 1), 1.
var faultTarget = regexp.MustCompile(`^(loss|duplicate|slow) from=(\S+) to=(\S+) msg=(\S+) op=(\d+) attempt=(\d+) occurrence=(\d+)$`)

// TestRunListsOneScheduleForEverySemantics: with keyed faults one seed is
// one schedule. Every message fault `once run --format json` lists for one
// semantics is listed for every other semantics whose run sends the
// message it targets (same sender, receiver, kind, operation and attempt,
// at least as often as its occurrence). Crash faults are left out: whether
// a node reaches a crash point is not visible as a send.
func TestRunListsOneScheduleForEverySemantics(t *testing.T) {
	shared := 0
	for _, sc := range []string{"double-billing", "at-least-once-duplicate"} {
		for seed := 1; seed <= 12; seed++ {
			code, out, errOut := runOnce("run", sc, "--seed", fmt.Sprint(seed), "--crash", "0", "--format", "json")
			if code != 0 {
				t.Fatalf("run %s: exit %d: %s", sc, code, errOut)
			}
			var doc struct {
				Results []struct {
					Alias     string   `json:"alias"`
					FaultPlan []string `json:"fault_plan"`
				} `json:"results"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			traces := map[string]string{}
			for _, r := range doc.Results {
				_, tr, _ := runOnce("run", sc, "--seed", fmt.Sprint(seed), "--crash", "0", "--semantics", r.Alias, "--format", "trace")
				traces[r.Alias] = tr
			}
			for _, a := range doc.Results {
				for _, line := range a.FaultPlan {
					m := faultTarget.FindStringSubmatch(line)
					if m == nil {
						continue
					}
					send := regexp.MustCompile(fmt.Sprintf(`(?m)^\s*\S+\s+%s\s+send\s+→ %s\s+%s op-%s #%s( |$)`,
						regexp.QuoteMeta(m[2]), regexp.QuoteMeta(m[3]), regexp.QuoteMeta(m[4]), m[5], m[6]))
					var occ int
					fmt.Sscan(m[7], &occ)
					for _, b := range doc.Results {
						if b.Alias == a.Alias || len(send.FindAllString(traces[b.Alias], -1)) < occ {
							continue
						}
						if !contains(b.FaultPlan, line) {
							t.Errorf("%s seed %d: %s has fault %q; %s sends that message but lists %v", sc, seed, a.Alias, line, b.Alias, b.FaultPlan)
						}
						shared++
					}
				}
			}
		}
	}
	if shared < 20 {
		t.Fatalf("only %d faults were shared between semantics: the test checks nothing", shared)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}
