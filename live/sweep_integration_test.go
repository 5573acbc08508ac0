//go:build integration

package live

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitFor polls cond every 50 ms for at most limit.
func waitFor(limit time.Duration, cond func() bool) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// killedRun starts once live with env and args, waits until ready says
// its workspace exists, and kills it with SIGKILL: no cleanup of its own
// runs. It returns the pid it had.
func killedRun(t *testing.T, env []string, ready func(pid int) bool, args ...string) int {
	t.Helper()
	cmd := exec.Command(onceBinary, append([]string{"live", "double-billing", "--semantics", "alo", "--tick", "20"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	ok := waitFor(30*time.Second, func() bool { return ready(pid) })
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if !ok {
		t.Fatalf("once live (pid %d) made no workspace named after it:\n%s", pid, errb.String())
	}
	return pid
}

// After SIGKILL of once live on SQLite, its temporary directory stays;
// the next run removes it.
func TestIntegrationOrphanTempDirSwept(t *testing.T) {
	tmp := t.TempDir()
	dirOf := func(pid int) []string {
		m, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("%s%d-*", tempPrefix, pid)))
		return m
	}
	pid := killedRun(t, []string{"TMPDIR=" + tmp}, func(pid int) bool { return len(dirOf(pid)) > 0 })
	if len(dirOf(pid)) == 0 {
		t.Fatal("the killed run's directory is already gone: nothing to sweep")
	}
	t.Setenv("TMPDIR", tmp)
	if gone := SweepTemp(os.TempDir()); len(gone) == 0 || len(dirOf(pid)) > 0 {
		t.Fatalf("the orphan of pid %d was not swept: %v, left %v", pid, gone, dirOf(pid))
	}
}

// After SIGKILL of once live on PostgreSQL, its schema stays; the next
// run drops it.
func TestIntegrationOrphanSchemaSwept(t *testing.T) {
	dsn := postgresDSN(t)
	admin, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	schemasOf := func(pid int) []string {
		rows, err := admin.Query(context.Background(), "SELECT nspname FROM pg_namespace WHERE nspname LIKE ?", fmt.Sprintf("once\\_live\\_%d\\_%%", pid))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var n string
			rows.Scan(&n)
			out = append(out, n)
		}
		return out
	}
	pid := killedRun(t, nil, func(pid int) bool { return len(schemasOf(pid)) > 0 }, "--db", dsn)
	if len(schemasOf(pid)) == 0 {
		t.Fatal("the killed run's schema is already gone: nothing to sweep")
	}
	out, errs, code := once(t, "live", "double-billing", "--semantics", "idem", "--ops", "1", "--db", dsn)
	if code != 0 {
		t.Fatalf("the next run: exit %d\n%s%s", code, out, errs)
	}
	if left := schemasOf(pid); len(left) > 0 {
		t.Fatalf("the next run left the orphan schema %s", strings.Join(left, ", "))
	}
}
