//go:build integration

package live

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killWay is how a live run is killed: SIGINT to once (Ctrl-C), SIGKILL
// to once alone (its children must go by themselves), or SIGKILL to its
// whole process group (a CI job cancelled).
type killWay struct {
	name  string
	sig   syscall.Signal
	group bool
}

var killWays = []killWay{{"SIGINT", syscall.SIGINT, false}, {"SIGKILL", syscall.SIGKILL, false}, {"SIGKILL of the group", syscall.SIGKILL, true}}

// TestIntegrationKilledAtRandomPoints kills once live at random points of
// a run with crashes (service processes killed and restarted all along),
// each way of killWays, and then checks what is left: no process whose
// command line names the run's temporary directory; after SIGINT no
// temporary directory (and no PostgreSQL schema of its pid); after
// SIGKILL, what the run could not remove is swept by the next run. The
// kill points are drawn from a fixed seed, so a failure repeats.
func TestIntegrationKilledAtRandomPoints(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { testKilled(t, "", 2) })
	t.Run("PostgreSQL", func(t *testing.T) { testKilled(t, postgresDSN(t), 1) })
}

func testKilled(t *testing.T, dsn string, perWay int) {
	rng := rand.New(rand.NewPCG(32, 4))
	tmp := t.TempDir() // the runs' TMPDIR: what they leave is seen here alone
	args := []string{"live", "double-billing", "--semantics", "idem", "--crash", "0.3", "--late", "0.3", "--seed", "2"}
	if dsn != "" {
		args = append(args, "--db", dsn)
	}
	start := func(args ...string) *exec.Cmd {
		cmd := exec.Command(onceBinary, args...)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	for _, way := range killWays {
		for i := 0; i < perWay; i++ {
			after := time.Duration(200+rng.IntN(1300)) * time.Millisecond
			cmd := start(args...)
			pid := cmd.Process.Pid
			time.Sleep(after)
			target := pid
			if way.group {
				target = -pid
			}
			syscall.Kill(target, way.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				syscall.Kill(-pid, syscall.SIGKILL)
				<-done
				t.Fatalf("%s after %v: once did not end within 30 s", way.name, after)
			}
			what := fmt.Sprintf("%s after %v (pid %d)", way.name, after, pid)
			if left := waitNoProcessNaming(tmp); len(left) > 0 {
				t.Errorf("%s: processes left: %v", what, left)
			}
			if way.sig == syscall.SIGINT {
				if code := cmd.ProcessState.ExitCode(); code != 3 && code != 0 {
					t.Errorf("%s: exit %d, want 3 (unfinished) or 0 (it had finished)", what, code)
				}
				if left := entries(t, tmp); len(left) > 0 {
					t.Errorf("%s: left in TMPDIR: %v", what, left)
				}
				if dsn != "" && schemasOf(t, dsn, pid) > 0 {
					t.Errorf("%s: a schema of pid %d left", what, pid)
				}
				continue
			}
			// SIGKILL runs no cleanup: the next run sweeps what this one left.
			next := []string{"live", "double-billing", "--semantics", "idem", "--ops", "1", "--seed", "1"}
			if dsn != "" {
				next = append(next, "--db", dsn)
			}
			sweep := start(next...)
			if err := sweep.Wait(); err != nil {
				t.Fatalf("%s: the next run: %v", what, err)
			}
			if left := entries(t, tmp); len(left) > 0 {
				t.Errorf("%s: left in TMPDIR after the next run: %v", what, left)
			}
			if dsn != "" && schemasOf(t, dsn, pid) > 0 {
				t.Errorf("%s: a schema of pid %d left after the next run", what, pid)
			}
		}
	}
}

// waitNoProcessNaming waits, bounded, until no process's command line
// names dir, and returns those still there.
func waitNoProcessNaming(dir string) []string {
	var left []string
	for i := 0; i < 100; i++ {
		left = left[:0]
		cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, f := range cmdlines {
			b, err := os.ReadFile(f)
			if err == nil && strings.Contains(string(b), dir) {
				left = append(left, f+": "+strings.ReplaceAll(string(b), "\x00", " "))
			}
		}
		if len(left) == 0 {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return left
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
