package lab_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// noRecoveryLab is double-billing with its explore faults, played by a
// service that never resolves a key a crash left PROCESSING: it answers
// 409 to every retry until the run's time budget (issue 29 item 2).
func noRecoveryLab(t *testing.T) *lab.Lab {
	t.Helper()
	l := newLab(t, "double-billing", "service", testNode("no-recovery"), nil)
	faults, _, err := l.Scenario.ExploreFaults(l.Scenario.ExploreDefaults.Faults)
	if err != nil {
		t.Fatal(err)
	}
	l.Settings.Faults = faults
	return l
}

// A schedule that makes no progress ends early with a liveness verdict
// naming the operation and its last answer, not at 3,600 virtual seconds
// with thousands of steps (and as many choices to branch on).
func TestExploreEndsAScheduleThatNeverCompletes(t *testing.T) {
	l := noRecoveryLab(t)
	res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds || !strings.Contains(res.Why, "op-1 never completes: its pay from client was answered the same way") ||
		!strings.Contains(res.Why, `\"status\":409`) || !strings.Contains(res.Why, "not at its time budget") {
		t.Fatalf("got %+v, want a counterexample that never completes, with its 409", res)
	}
	if res.Faults > 1 || res.MaxDepth > 2000 {
		t.Errorf("%d faults, %d choices in one schedule: want one fault and a schedule ended early", res.Faults, res.MaxDepth)
	}
	t.Logf("%+v, %s held", res.ExploreStats, search.FormatBytes(res.Memory))
}

// --max-memory cuts a search deterministically: the same cut, after the
// same schedules, whatever the worker count; and a run whose transcript
// alone passes it is cut with its cause.
func TestMaxMemoryCutsDeterministically(t *testing.T) {
	var cuts []string
	var stats []lab.ExploreStats
	for _, w := range []int{1, 2} {
		l := noRecoveryLab(t)
		l.Settings.Ops = 2
		l.MaxMemory = 8 << 20
		res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 2, Workers: w, Promise: sim.AtMostOne})
		if err != nil {
			t.Fatal(err)
		}
		if res.Complete || res.Schedules == 0 || !strings.HasPrefix(res.Cut, "memory budget of 8MiB exhausted") {
			t.Fatalf("workers %d: %+v, want a search cut by its memory budget", w, res)
		}
		cuts, stats = append(cuts, res.Cut), append(stats, res.ExploreStats)
	}
	if cuts[0] != cuts[1] || stats[0] != stats[1] {
		t.Errorf("the cut depends on the workers: %q %+v vs %q %+v", cuts[0], stats[0], cuts[1], stats[1])
	}
	t.Logf("%s after %+v", cuts[0], stats[0])

	l := noRecoveryLab(t)
	l.MaxMemory = 4 << 10
	_, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
	var me *lab.MemoryError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "past its budget of 4KiB (--max-memory)") {
		t.Errorf("err = %v, want the run cut by --max-memory", err)
	}
}

// parentArg makes the test binary a program running a lab whose node
// never answers (runParent): the test kills it with SIGKILL.
const parentArg = "lab-parent"

func runParent() {
	sc, _ := scenarios.Lookup("double-billing")
	l := &lab.Lab{Scenario: sc, Settings: scenarios.Settings{Ops: 1, Faults: sc.Faults}, Seed: 1,
		Commands: map[string][]string{"service": testNode("sleep")}, StepTimeout: time.Hour, StartAllowance: -1}
	_, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
	fmt.Fprintln(os.Stderr, err)
}

// A node outlives no SIGKILLed harness: it gets the parent-death signal
// (Linux), as a hung node would otherwise keep running.
func TestNodeDiesWithAKilledHarness(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(exe, parentArg)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	marker := []byte("ONCE_LAB_NODE=" + strconv.Itoa(parent.Process.Pid) + ".")
	deadline := time.Now().Add(30 * time.Second)
	for len(markedBy(marker)) == 0 {
		if time.Now().After(deadline) {
			parent.Process.Kill()
			parent.Wait()
			t.Fatal("the harness started no node within 30s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = parent.Process.Signal(syscall.SIGKILL)
	_ = parent.Wait()
	deadline = time.Now().Add(5 * time.Second)
	for {
		left := markedBy(marker)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("nodes outlived the killed harness: %v", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// markedBy lists the live processes (zombies aside) whose environment
// holds marker.
func markedBy(marker []byte) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !strings.Contains(string(env), string(marker)) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if f := strings.Fields(string(st)); len(f) > 2 && f[2] == "Z" {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}
