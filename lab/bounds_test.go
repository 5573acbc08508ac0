package lab_test

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Nothing a node starts survives the run: not a child in its group, not
// a grandchild in a session of its own (setsid), not an orphan whose
// parent exited at once (a double fork) — checked in /proc by the
// marker every process of the harness inherits.
func TestNothingLeftRunning(t *testing.T) {
	for _, node := range []string{"hang", "setsid", "double-fork", "die"} {
		t.Run(node, func(t *testing.T) {
			l := newLab(t, "double-billing", "service", testNode(node), nil)
			l.Settings.Ops = 1
			if node == "hang" {
				l.StepTimeout, l.StartAllowance = 300e6, -1
			}
			_, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
			if node == "hang" || node == "die" {
				var le *lab.Error
				if !errors.As(err, &le) {
					t.Fatalf("err = %v, want a *lab.Error", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if s := labtest.Marked(t); len(s) > 0 {
				t.Errorf("processes survived the run: %v", s)
			}
		})
	}
}

// An explore starts a process per schedule: none survives it, setsid
// grandchildren included.
func TestNothingLeftRunningAfterExplore(t *testing.T) {
	l := newLab(t, "double-billing", "service", testNode("setsid"), nil)
	l.Settings.Ops = 1
	losses, _, err := scenarios.ExploreFaults("loss")
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = losses
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 2, Promise: sim.AtMostOne})
	if err != nil {
		t.Fatal(err)
	}
	if res.Schedules < 2 {
		t.Errorf("%d schedules, want several", res.Schedules)
	}
	if s := labtest.Marked(t); len(s) > 0 {
		t.Errorf("processes survived the explore: %v", s)
	}
}

// A node that floods the engine with timers, or stderr with output, ends
// the run with one line naming it; its stderr is kept as a bounded tail.
func TestFloodsEndWithOneLine(t *testing.T) {
	cases := map[string]string{
		"timer-flood":  "queued more than 100 messages and timers in one event",
		"stderr-flood": "wrote more than 64 MiB on stderr",
	}
	for node, want := range cases {
		t.Run(node, func(t *testing.T) {
			l := newLab(t, "double-billing", "service", testNode(node), nil)
			_, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
			var le *lab.Error
			if !errors.As(err, &le) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %q", err, want)
			}
			if len(le.Stderr) > 64<<10 {
				t.Errorf("stderr tail of %d bytes, want at most 64 KiB", len(le.Stderr))
			}
			if s := labtest.Marked(t); len(s) > 0 {
				t.Errorf("processes survived: %v", s)
			}
		})
	}
}

// A dying node's last words are kept with its error.
func TestErrorKeepsStderrTail(t *testing.T) {
	l := newLab(t, "double-billing", "service", testNode("die"), nil)
	_, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
	var le *lab.Error
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "exited (exit status 3) before done") {
		t.Fatalf("err = %v", err)
	}
	if string(le.Stderr) != "giving up\n" {
		t.Errorf("stderr = %q, want the node's last words", le.Stderr)
	}
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc")
	}
}

// A node that answers from the clock is named, with its step, by --check
// (two runs of one schedule) and by --explore (a replayed prefix).
func TestNondeterministicGoNodeIsNamed(t *testing.T) {
	l := newLab(t, "at-least-once-duplicate", "consumer", testNode("random-consumer"), nil)
	err := l.CheckDeterminism(sim.Idempotent, func() sim.Chooser { return sim.NewRandom(1) })
	var ne *lab.NondeterminismError
	if !errors.As(err, &ne) {
		t.Fatalf("err = %v, want a *lab.NondeterminismError", err)
	}
	if ne.Node != "consumer" || ne.Step != 2 || !strings.Contains(ne.First, `"effect"`) {
		t.Errorf("got %+v, want consumer's step 2, the effect line", ne)
	}
	// The differing field itself, with both values, however long the
	// line's shared prefix.
	if !regexp.MustCompile(`answered with body\.value = \d+ \(.*\) the first time and with body\.value = \d+ \(`).MatchString(err.Error()) {
		t.Errorf("err = %v, want the differing field body.value with both values", err)
	}
	l.Settings.Ops = 2
	losses, _, err := scenarios.ExploreFaults("loss")
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = losses
	_, err = l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 1})
	if !errors.As(err, &ne) {
		t.Fatalf("explore: err = %v, want a *lab.NondeterminismError", err)
	}
	if s := labtest.Marked(t); len(s) > 0 {
		t.Errorf("processes survived: %v", s)
	}
}

// The store's operations, each one atomic step with its answer; a row
// keeps its zero fields; an integer past 2^53 is refused, named.
func TestStoreOperations(t *testing.T) {
	l := newLab(t, "double-billing", "service", testNode("store-ops"), nil)
	var logs strings.Builder
	l.Logs = &logs
	_, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
	if err == nil || !strings.Contains(err.Error(), "field body.record.value: 9007199254740992 is beyond ±2^53-1") {
		t.Errorf("err = %v, want the integer past 2^53 refused", err)
	}
	want := []string{
		`{"type":"insert_if_absent_ok","in_reply_to":1,"inserted":true}`,
		`{"type":"insert_if_absent_ok","in_reply_to":2,"record":{"state":"PROCESSING","status":0,"value":0,"aux":0},"inserted":false}`,
		`{"type":"read_ok","in_reply_to":3,"record":{"state":"PROCESSING","status":0,"value":0,"aux":0},"found":true}`,
		`{"type":"compare_and_set_ok","in_reply_to":4,"record":{"state":"PROCESSING","status":0,"value":0,"aux":0},"found":true,"swapped":false}`,
		`{"type":"compare_and_set_ok","in_reply_to":5,"record":{"state":"PROCESSING","status":0,"value":0,"aux":0},"found":true,"swapped":true}`,
		`{"type":"update_ok","in_reply_to":6,"updated":false}`,
		`{"type":"update_ok","in_reply_to":7,"updated":true}`,
		`{"type":"read_ok","in_reply_to":8,"record":{"state":"COMPLETED","status":201,"value":0,"aux":0},"found":true}`,
		`{"type":"set_nx_px_ok","in_reply_to":9,"acquired":true}`,
		`{"type":"set_nx_px_ok","in_reply_to":10,"record":{"state":"PROCESSING","status":0,"value":1,"aux":0},"acquired":false}`,
		`{"type":"list_ok","in_reply_to":11,"keys":[7,9]}`,
	}
	got := logs.String()
	for _, w := range want {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("no answer %s in:\n%s", w, got)
		}
	}
}

// A counterexample that does not replay is not reported as one: explore
// runs it again and names the node that answered it another way.
func TestExploreCounterexampleMustReplay(t *testing.T) {
	l := newLab(t, "at-least-once-duplicate", "consumer", testNode("first-run-bills-twice", t.TempDir()+"/ran"), nil)
	l.Settings.Ops = 1
	_, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 0, Workers: 1})
	var ne *lab.NondeterminismError
	if !errors.As(err, &ne) {
		t.Fatalf("err = %v, want a *lab.NondeterminismError", err)
	}
	if ne.Node != "consumer" || ne.Step != 2 {
		t.Errorf("got %+v, want consumer's step 2", ne)
	}
}

// An unseeded random node that declares reset is named nondeterministic,
// not blamed on its reset: two fresh processes disagree too.
func TestRandomNodeIsNotBlamedOnReset(t *testing.T) {
	var n atomic.Int64
	_, err := resetLab(t, &n, "reset-random").Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 1})
	var ne *lab.NondeterminismError
	if !errors.As(err, &ne) || ne.AfterReset || !strings.Contains(err.Error(), "is not deterministic") {
		t.Fatalf("err = %v, want plain nondeterminism, not the reset blamed", err)
	}
}

// A field the protocol does not know is named with its full path, inside
// a record too.
func TestUnknownNestedFieldNamedInFull(t *testing.T) {
	l := newLab(t, "double-billing", "service", testNode("typo-record"), nil)
	l.Settings.Ops = 1
	_, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
	if err == nil || !strings.Contains(err.Error(), "field body.record.note is not a field of the protocol") {
		t.Errorf("err = %v, want body.record.note named", err)
	}
}

// A dest that is no node, sink or store is refused with the names of
// this scenario, not the catalog's sinks.
func TestBadDestListsTheScenariosNames(t *testing.T) {
	l := newLab(t, "double-billing", "service", testNode("bad-dest"), nil)
	l.Settings.Ops = 1
	_, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
	if err == nil || !strings.Contains(err.Error(), `field dest: "emails" is no node, sink or store of this scenario (want one of client, service, gateway, card-charges, harness, durable, volatile)`) {
		t.Errorf("err = %v, want the scenario's names only", err)
	}
}
