package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oncesim/once/lab/labtest"
)

func runLabCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := execute(append([]string{"lab"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// The naive consumer's counterexample under --explore is shrunk and
// replayable with the same nodes.
func TestLabExploreCounterexample(t *testing.T) {
	cmd := "consumer=" + labtest.BuildGo(t, "naive_consumer")
	code, out, _ := runLabCLI(t, "at-least-once-duplicate", "--node", cmd, "--explore", "--max-faults", "2")
	if code != exitViolation {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"COUNTEREXAMPLE: op-", "faults (shrunk from 1 to 1):", "steps:", "EFFECT   billing", "replay: once lab at-least-once-duplicate --node"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// --save writes a plan; --replay runs it with the same program and gives
// the same trace.
func TestLabSaveAndReplay(t *testing.T) {
	cmd := "service=" + labtest.BuildGo(t, "naive_service")
	plan := t.TempDir() + "/plan.txt"
	code, first, errOut := runLabCLI(t, "double-billing", "--node", cmd, "--save", plan, "--format", "trace")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	code, again, errOut := runLabCLI(t, "--node", cmd, "--replay", plan, "--format", "trace")
	if code != exitOK {
		t.Fatalf("replay: exit %d\n%s", code, errOut)
	}
	if first != again {
		t.Errorf("the replay's trace differs from the run's")
	}
	if !strings.Contains(first, "EFFECT   card-charges") || !strings.Contains(first, "DROP(") {
		t.Errorf("trace lacks the charges or the faults:\n%s", first)
	}
}

// Mermaid and SVG render lab runs like built-in ones.
func TestLabFormats(t *testing.T) {
	cmd := "consumer=" + labtest.BuildGo(t, "idempotent_consumer")
	for format, want := range map[string]string{"mermaid": "sequenceDiagram", "svg": "<svg", "json": `"schema"`} {
		code, out, errOut := runLabCLI(t, "at-least-once-duplicate", "--node", cmd, "--format", format, "--ops", "2")
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("--format %s: exit %d, output lacks %q\n%s", format, code, want, errOut)
		}
	}
}

// Bad input is one line and exit 2.
func TestLabBadInput(t *testing.T) {
	cases := map[string][]string{
		"no --node given":                                {"double-billing"},
		`--node "service": want NAME=COMMAND`:            {"double-billing", "--node", "service"},
		"cannot run":                                     {"double-billing", "--node", "service=/no/such/program"},
		"scenario double-billing has no node nope":       {"double-billing", "--node", "nope=/bin/true"},
		"a lab node cannot play role":                    {"double-billing", "--node", "client=/bin/true"},
		"--step-timeout 0s: want a positive":             {"double-billing", "--node", "service=/bin/true", "--step-timeout", "0s"},
		`--max-memory "lots": not a size`:                {"double-billing", "--node", "service=/bin/true", "--max-memory", "lots"},
		"--max-faults: only --explore runs schedules":    {"double-billing", "--node", "service=/bin/true", "--max-faults", "-3"},
		"--faults: only --explore runs schedules":        {"double-billing", "--node", "service=/bin/true", "--faults", "bogus"},
		"--max-schedules: only --explore runs schedules": {"double-billing", "--node", "service=/bin/true", "--max-schedules", "0"},
	}
	for want, args := range cases {
		code, _, errOut := runLabCLI(t, args...)
		if code != exitUsage || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", args, code, errOut, want)
		}
	}
}

// --twice hands every delivery over twice: the naive consumer bills twice
// with no fault at all; the idempotent one does not.
func TestLabTwice(t *testing.T) {
	noFaults := []string{"--loss", "0", "--ack-loss", "0", "--crash", "0", "--check", "--twice"}
	naive := "consumer=" + labtest.BuildGo(t, "naive_consumer")
	code, out, errOut := runLabCLI(t, append([]string{"at-least-once-duplicate", "--node", naive}, noFaults...)...)
	if code != exitViolation || !strings.Contains(out, "has 2 effects") {
		t.Errorf("naive --twice: exit %d, want 1 with a duplicated effect\n%s%s", code, out, errOut)
	}
	idem := "consumer=" + labtest.BuildGo(t, "idempotent_consumer")
	if code, out, errOut := runLabCLI(t, append([]string{"at-least-once-duplicate", "--node", idem}, noFaults...)...); code != exitOK {
		t.Errorf("idempotent --twice: exit %d, want 0\n%s%s", code, out, errOut)
	}
}

// Ctrl-C, SIGTERM and SIGHUP during a run kill every process the lab
// started, the child in the node's group and the grandchild in a session
// of its own included, and the command ends with one line.
func TestLabSignalsKillNodes(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			spawned := make(chan struct{}, 1)
			o := &labOptions{onSpawn: func(int) { spawned <- struct{}{} }}
			cmd := labCommand(o)
			var stdout, stderr bytes.Buffer
			cmd.SetOut(&stdout)
			cmd.SetErr(&stderr)
			hang := filepath.Join(labtest.Root(t), "lab", "testdata", "hang.sh")
			cmd.SetArgs([]string{"double-billing", "--node", "service=sh " + hang, "--step-timeout", "60s"})
			done := make(chan error, 1)
			go func() { done <- cmd.Execute() }()
			select {
			case <-spawned:
			case err := <-done:
				t.Fatalf("the command ended before starting its node: %v", err)
			case <-time.After(30 * time.Second):
				t.Fatal("no node started within 30s")
			}
			time.Sleep(200 * time.Millisecond) // let it start its children
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("the command did not end within 30s of %s", sig)
			}
			if err == nil || !strings.Contains(err.Error(), "lab: node service, step 1 (init, incarnation 1): interrupted") {
				t.Errorf("err = %v, want the interrupted step", err)
			}
			if s := labtest.Marked(t); len(s) > 0 {
				t.Errorf("processes survived %s: %v", sig, s)
			}
		})
	}
}

// On a terminal, --explore draws a progress line and clears it before
// the verdict.
func TestLabExploreProgress(t *testing.T) {
	var progress, stdout bytes.Buffer
	cmd := labCommand(&labOptions{progress: &progress})
	cmd.SetOut(&stdout)
	cmd.SetErr(&bytes.Buffer{})
	cmd.SetArgs([]string{"at-least-once-duplicate", "--node", "consumer=" + labtest.BuildGo(t, "idempotent_consumer"), "--explore", "--max-faults", "1"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if p := progress.String(); !strings.Contains(p, "exploring: ") || !strings.Contains(p, "now those with 1 fault(s)") || !strings.HasSuffix(p, "\r\033[K") {
		t.Errorf("progress = %q, want a line per chunk, cleared at the end", p)
	}
	if !strings.Contains(stdout.String(), "HOLDS") {
		t.Errorf("stdout = %q", stdout.String())
	}
}

// --check and --explore judge the scenario's row: a service that answers
// 422 to a reused key passes key-reuse-different-payload (its refused
// payments are lost by design); new-key-per-retry says the client breaks
// the promise whatever the service does.
func TestLabJudgedByTheRow(t *testing.T) {
	cmd := "service=" + labtest.BuildGo(t, "idempotent_service")
	code, out, errOut := runLabCLI(t, "key-reuse-different-payload", "--node", cmd, "--check")
	if code != exitOK || !strings.Contains(out, "judged against row `idem` of key-reuse-different-payload (≤1 refused invariants)") {
		t.Errorf("key-reuse --check: exit %d, want 0 naming the row\n%s%s", code, out, errOut)
	}
	code, out, errOut = runLabCLI(t, "key-reuse-different-payload", "--node", cmd, "--explore", "--max-faults", "1")
	if code != exitOK || !strings.Contains(out, "HOLDS: every schedule with ≤ 1 faults keeps ≤1 invariants") {
		t.Errorf("key-reuse --explore: exit %d, want 0 and HOLDS\n%s%s", code, out, errOut)
	}
	_, out, _ = runLabCLI(t, "new-key-per-retry", "--node", cmd, "--seed", "1")
	if !strings.Contains(out, "judged against row `idem` of new-key-per-retry (dup ≥1)") || !strings.Contains(out, "whatever your node does (another node is at fault)") {
		t.Errorf("new-key-per-retry does not say the client breaks it:\n%s", out)
	}
}

// --preempt and --faults preempt are refused where nothing can be
// preempted: one process answers one event at a time.
func TestLabRefusesPreemptionOfOneProcess(t *testing.T) {
	for _, args := range [][]string{
		{"double-billing", "--node", "service=/bin/true", "--preempt", "0.3"},
		{"double-billing", "--node", "service=/bin/true", "--explore", "--faults", "loss,preempt"},
		{"concurrent-same-key", "--node", "service=/bin/true", "--replicas", "1", "--explore", "--max-preemptions", "1"},
	} {
		code, _, errOut := runLabCLI(t, args...)
		if code != exitUsage || !strings.Contains(errOut, "nothing to preempt") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line saying nothing can be preempted", args, code, errOut)
		}
	}
}

// An explore killed by SIGTERM (a time limit) prints INCOMPLETE with the
// statistics it has, and leaves nothing running.
func TestLabExploreInterruptedIsIncomplete(t *testing.T) {
	spawned := make(chan struct{}, 1)
	o := &labOptions{onSpawn: func(int) {
		select {
		case spawned <- struct{}{}:
		default:
		}
	}}
	cmd := labCommand(o)
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs([]string{"double-billing", "--node", "service=" + labtest.BuildGo(t, "idempotent_service"), "--explore", "--max-faults", "3", "--ops", "3"})
	done := make(chan error, 1)
	go func() { done <- cmd.Execute() }()
	select {
	case <-spawned:
	case err := <-done:
		t.Fatalf("the command ended before starting its node: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("no node started within 30s")
	}
	time.Sleep(300 * time.Millisecond)
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the command did not end within 60s of SIGTERM")
	}
	out := stdout.String()
	if !strings.Contains(out, "INCOMPLETE: no violation found, but the search was cut: interrupted") || !strings.Contains(out, "explored ") {
		t.Errorf("output lacks INCOMPLETE and the statistics:\n%s%s", out, stderr.String())
	}
	if s := labtest.Marked(t); len(s) > 0 {
		t.Errorf("processes survived: %v", s)
	}
}

// concurrent-same-key is playable: two replicas of the service behind
// one address, preempted at store answers; the idempotent starter (one
// insert_if_absent) passes --check.
func TestLabConcurrentSameKey(t *testing.T) {
	cmd := "service=" + labtest.BuildGo(t, "idempotent_service")
	code, out, errOut := runLabCLI(t, "concurrent-same-key", "--node", cmd, "--check")
	if code != exitOK || !strings.Contains(out, "judged against row `idem lock=unique-insert` of concurrent-same-key (=1)") || !strings.Contains(out, "preempted") {
		t.Errorf("exit %d, want 0, the row and preemptions\n%s%s", code, out, errOut)
	}
}

// A fault kind named with --faults that the lab's topology never offers
// is refused with the reason, as `once explore` refuses it: a search over
// it would prove nothing. --workers is --explore's alone.
func TestLabExploreRefusesVacuousKinds(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"key-reuse-different-payload", "--node", "service=/bin/true", "--explore", "--faults", "crash"}, "--faults crash: key-reuse-different-payload has no crash point"},
		{[]string{"key-reuse-different-payload", "--node", "service=/bin/true", "--explore", "--faults", "loss,pause"}, "--faults pause: key-reuse-different-payload has no crash point"},
		{[]string{"double-billing", "--node", "service=/bin/true", "--workers", "2"}, "--workers: only --explore runs schedules side by side"},
		{[]string{"double-billing", "--node", "service=/bin/true", "--explore", "--workers", "0"}, "--workers 0: want a positive count"},
	} {
		code, _, errOut := runLabCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line %q", c.args, code, errOut, c.want)
		}
	}
}

// SIGINT or SIGTERM ends a lab explore soon, INCOMPLETE with its
// statistics (issue 29: they were ignored while an explore ate the
// machine); and a lab blocked outside any node — a plan that is a FIFO
// nobody writes — ends within labGrace with one line (issue 35).
func TestLabSignalsEndItSoon(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			spawned := make(chan struct{}, 1)
			exited := make(chan int, 1)
			o := &labOptions{exit: func(code int) { exited <- code }, onSpawn: func(int) {
				select {
				case spawned <- struct{}{}:
				default:
				}
			}}
			cmd := labCommand(o)
			var stdout, stderr bytes.Buffer
			cmd.SetOut(&stdout)
			cmd.SetErr(&stderr)
			cmd.SetArgs([]string{"double-billing", "--node", "service=" + labtest.BuildGo(t, "idempotent_service"), "--explore", "--max-faults", "4", "--ops", "4"})
			done := make(chan error, 1)
			go func() { done <- cmd.Execute() }()
			select {
			case <-spawned:
			case <-time.After(30 * time.Second):
				t.Fatal("no node started within 30s")
			}
			time.Sleep(300 * time.Millisecond)
			start := time.Now()
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case code := <-exited:
				t.Fatalf("the explore did not end by itself: exit %d", code)
			case <-time.After(5 * time.Second):
				t.Fatalf("the command did not end within 5s of %s", sig)
			}
			t.Logf("ended %v after %s", time.Since(start), sig)
			if out := stdout.String(); !strings.Contains(out, "INCOMPLETE: no violation found, but the search was cut: interrupted") || !strings.Contains(out, "explored ") {
				t.Errorf("output lacks INCOMPLETE and the statistics:\n%s%s", out, stderr.String())
			}
			if s := labtest.Marked(t); len(s) > 0 {
				t.Errorf("processes survived: %v", s)
			}
		})
	}
	// A plan that is a FIFO no longer blocks the lab: it is refused before
	// it is opened (cmd/once hostile_files_test.go, lab --replay).
}

// --replay takes every plan --save writes: a preemption names a store
// answer (msg=read_ok), a message kind of the lab's nodes only (issue 29:
// it was refused as unknown); --explore --save writes the shrunk
// counterexample, which --replay --check finds again.
func TestLabReplayEveryPlanSaved(t *testing.T) {
	cmd := "service=" + labtest.BuildGo(t, "idempotent_service")
	plan := filepath.Join(t.TempDir(), "race.txt")
	code, _, errOut := runLabCLI(t, "concurrent-same-key", "--node", cmd, "--check", "--preempt", "0.5", "--save", plan)
	if code != exitOK {
		t.Fatalf("--check: exit %d\n%s", code, errOut)
	}
	if raw, _ := os.ReadFile(plan); !strings.Contains(string(raw), "preempt from=service to=service msg=") {
		t.Fatalf("the plan holds no preemption:\n%s", raw)
	}
	if code, _, errOut := runLabCLI(t, "--node", cmd, "--replay", plan); code != exitOK || !strings.Contains(errOut, "replayed "+plan) {
		t.Errorf("--replay of a preemption plan: exit %d\n%s", code, errOut)
	}

	consumer := "consumer=" + labtest.BuildGo(t, "naive_consumer")
	cex := filepath.Join(t.TempDir(), "cex.txt")
	code, out, errOut := runLabCLI(t, "at-least-once-duplicate", "--node", consumer, "--explore", "--max-faults", "1", "--save", cex)
	if code != exitViolation || !strings.Contains(errOut, "saved fault plan "+cex) {
		t.Fatalf("--explore --save: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runLabCLI(t, "--node", consumer, "--replay", cex, "--check")
	if code != exitViolation || !strings.Contains(errOut, "1 of 1 planned fault(s) hit") {
		t.Errorf("--replay of the counterexample: exit %d, want 1\n%s%s", code, out, errOut)
	}
	held := filepath.Join(t.TempDir(), "none.txt")
	code, _, errOut = runLabCLI(t, "at-least-once-duplicate", "--node", "consumer="+labtest.BuildGo(t, "idempotent_consumer"), "--explore", "--max-faults", "1", "--save", held)
	if _, err := os.Stat(held); code != exitOK || err == nil || !strings.Contains(errOut, "no counterexample, nothing written") {
		t.Errorf("--explore --save of a proof: exit %d, file %v, stderr %q", code, err, errOut)
	}
}

// --no-reset exists (docs/lab-protocol.md 6b) and changes nothing in the
// report of a node that declares reset.
func TestLabNoResetSameReport(t *testing.T) {
	cmd := "consumer=" + labtest.BuildGo(t, "idempotent_consumer")
	args := []string{"at-least-once-duplicate", "--node", cmd, "--explore", "--max-faults", "1"}
	code, with, errOut := runLabCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	code, without, errOut := runLabCLI(t, append(args, "--no-reset")...)
	if code != exitOK || with != without {
		t.Errorf("--no-reset: exit %d, report differs:\n%s\nvs\n%s%s", code, with, without, errOut)
	}
}
