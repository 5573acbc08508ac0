package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oncesim/once/scenarios/lab/labtest"
)

// starter is a scenario and the node its starters play.
type starter struct {
	scenario, node, naive, idempotent string
}

var starters = []starter{
	{"double-billing", "service", "naive_service", "idempotent_service"},
	{"at-least-once-duplicate", "consumer", "naive_consumer", "idempotent_consumer"},
}

// command is how the test runs starter name in language lang.
func starterCommand(t *testing.T, lang, name string) string {
	t.Helper()
	root := labtest.Root(t)
	if lang == "python" {
		return labtest.Python(t) + " " + root + "/examples/lab/python/" + name + ".py"
	}
	return labtest.BuildGo(t, name)
}

func runLabCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := execute(append([]string{"lab"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// The "done when": the naive starters fail --check with a
// duplicated effect and a shrunk plan; the idempotent ones pass --check
// and --explore --max-faults 3 — in Python and in Go.
func TestLabStarters(t *testing.T) {
	for _, lang := range []string{"go", "python"} {
		for _, s := range starters {
			t.Run(lang+"/"+s.naive, func(t *testing.T) {
				code, out, errOut := runLabCLI(t, s.scenario, "--node", s.node+"="+starterCommand(t, lang, s.naive), "--check")
				if code != exitViolation {
					t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
				}
				for _, want := range []string{"verdict: violated", "shrunk: ", "minimal faults (", "replay: once lab " + s.scenario} {
					if !strings.Contains(out, want) {
						t.Errorf("output lacks %q:\n%s", want, out)
					}
				}
			})
			t.Run(lang+"/"+s.idempotent, func(t *testing.T) {
				cmd := s.node + "=" + starterCommand(t, lang, s.idempotent)
				if code, out, errOut := runLabCLI(t, s.scenario, "--node", cmd, "--check", "--crash", "0.2"); code != exitOK {
					t.Fatalf("--check: exit %d, want 0\n%s%s", code, out, errOut)
				}
				// Every schedule starts a process: a Go starter takes milliseconds,
				// Python tens of them (a minute per starter at the scenario's 2
				// operations on a busy machine), so Python explores 1 operation.
				faults, args := "3", []string{s.scenario, "--node", cmd, "--explore"}
				if lang == "python" {
					args = append(args, "--ops", "1")
					if testing.Short() {
						faults = "1"
					}
				}
				code, out, errOut := runLabCLI(t, append(args, "--max-faults", faults)...)
				if code != exitOK || !strings.Contains(out, "HOLDS: every schedule with ≤ "+faults+" faults keeps =1") {
					t.Fatalf("--explore: exit %d, want 0 and HOLDS\n%s%s", code, out, errOut)
				}
			})
		}
	}
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
		"no --node given":                          {"double-billing"},
		`--node "service": want NAME=COMMAND`:      {"double-billing", "--node", "service"},
		"cannot run":                               {"double-billing", "--node", "service=/no/such/program"},
		"scenario double-billing has no node nope": {"double-billing", "--node", "nope=/bin/true"},
		"a lab node cannot play role":              {"double-billing", "--node", "client=/bin/true"},
		"--step-timeout 0s: want a positive":       {"double-billing", "--node", "service=/bin/true", "--step-timeout", "0s"},
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
	if code != exitViolation || !strings.Contains(out, "twice ✗") {
		t.Errorf("naive --twice: exit %d, want 1 with a duplicated effect\n%s%s", code, out, errOut)
	}
	idem := "consumer=" + labtest.BuildGo(t, "idempotent_consumer")
	if code, out, errOut := runLabCLI(t, append([]string{"at-least-once-duplicate", "--node", idem}, noFaults...)...); code != exitOK {
		t.Errorf("idempotent --twice: exit %d, want 0\n%s%s", code, out, errOut)
	}
}

// Ctrl-C during a run kills every process group the lab started, the
// grandchild included, and the command ends with one line.
func TestLabInterruptKillsNodes(t *testing.T) {
	pids := &labtest.Pids{}
	spawned := make(chan struct{}, 1)
	o := &labOptions{onSpawn: func(pid int) {
		pids.Add(pid)
		spawned <- struct{}{}
	}}
	cmd := labCommand(o)
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	hang := filepath.Join(labtest.Root(t), "scenarios", "lab", "testdata", "hang.py")
	cmd.SetArgs([]string{"double-billing", "--node", "service=" + labtest.Python(t) + " " + hang, "--step-timeout", "60s"})
	done := make(chan error, 1)
	go func() { done <- cmd.Execute() }()
	select {
	case <-spawned:
	case err := <-done:
		t.Fatalf("the command ended before starting its node: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("no node started within 30s")
	}
	time.Sleep(200 * time.Millisecond) // let it start its child
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the command did not end within 30s of Ctrl-C")
	}
	if err == nil || !strings.Contains(err.Error(), "lab: node service, step 1 (init, incarnation 1): interrupted") {
		t.Errorf("err = %v, want the interrupted step", err)
	}
	if s := pids.Survivors(t); len(s) > 0 {
		t.Errorf("processes survived Ctrl-C: %v", s)
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
