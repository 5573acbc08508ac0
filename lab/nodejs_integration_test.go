//go:build integration

package lab_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestIntegrationNodeJSSection runs the protocol page's Node.js consumer
// as it stands (issue 29 item 8): it speaks the protocol with its
// synchronous read loop, declares reset, and is proved at ≤ 2 faults.
func TestIntegrationNodeJSSection(t *testing.T) {
	node := labtest.Node(t)
	script := filepath.Join(t.TempDir(), "consumer.js")
	if err := os.WriteFile(script, []byte(labtest.ProtocolBlock(t, "## 10. Node.js", "js")), 0o644); err != nil {
		t.Fatal(err)
	}
	l := newLab(t, "at-least-once-duplicate", "consumer", []string{node, script}, nil)
	l.Settings.Ops = 2
	faults, _, err := scenarios.ExploreFaults("loss,ack-loss,crash")
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = faults
	judge := l.JudgeFor(sim.Idempotent)
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Judge: &judge, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res.ExploreStats)
	if !res.Holds || !res.Complete || res.Schedules < 10 {
		t.Fatalf("holds %v complete %v over %d schedules: %s", res.Holds, res.Complete, res.Schedules, res.Why)
	}
	if s := labtest.Marked(t); len(s) > 0 {
		t.Errorf("processes survived: %v", s)
	}
}
