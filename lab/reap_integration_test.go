//go:build integration

package lab_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/sim"
)

// What a node starts is reaped with each schedule, not when the explore
// ends (issue 29 item 6: 1,316 sleeps piled up), whether the node is
// reset between schedules or killed, and whether its child stays in its
// process group, leaves it with setsid, or is orphaned by a double fork.
func TestIntegrationGrandchildrenReapedPerSchedule(t *testing.T) {
	for _, arg := range []string{"group", "setsid", "double-fork", "group,no-reset", "setsid,no-reset", "double-fork,no-reset"} {
		t.Run(arg, func(t *testing.T) {
			var spawns atomic.Int64
			l := resetLab(t, &spawns, "reset-spawner", arg)
			most, chunks := 0, 0
			res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 1, Progress: func(lab.ExploreStats) {
				chunks++
				n := 0
				for _, p := range labtest.Marked(t) {
					if strings.Contains(p, "sleep") {
						n++
					}
				}
				most = max(most, n)
			}})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v, %d processes started: at most %d sleeps alive in %d looks between chunks", res.ExploreStats, spawns.Load(), most, chunks)
			if chunks == 0 || res.Schedules < 10 {
				t.Fatalf("%d looks over %d schedules: nothing was checked", chunks, res.Schedules)
			}
			if most > 0 {
				t.Errorf("%d children of nodes alive between schedules, want none", most)
			}
			if s := labtest.Marked(t); len(s) > 0 {
				t.Errorf("processes survived the explore: %v", s)
			}
		})
	}
}
