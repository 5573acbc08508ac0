//go:build integration

package live

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// onceBinary is the once executable the tests start as the service
// process: built once, into a temporary directory, by TestMain.
var onceBinary string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

// testCtx ends guardMargin before go test's -timeout would end the test
// binary. go test's timeout panics: no test's cleanup runs, and a once
// killed with the binary (dieWithTest) has no time to stop what it
// started. Every once the tests start (onceCmd, shellCmd) is interrupted
// instead when testCtx ends, as by Ctrl-C: it stops its services and
// removes its files, the test fails with what it was doing, and the
// cleanups run. The rest of the package's tests then fail at once.
var testCtx = context.Background()

// guardMargin is how long before go test's timeout the tests' once
// processes are interrupted: a tenth of it, at least 5 s, at most a
// minute (once's own cleanup takes a second or two; a test's cleanups
// and the next tests' quick failures take the rest).
func guardMargin(timeout time.Duration) time.Duration {
	return min(max(timeout/10, 5*time.Second), time.Minute)
}

// guardTimeout starts testCtx's countdown from now (go test's timeout
// starts in m.Run, right after): nothing when -test.timeout is 0.
func guardTimeout() (stop func()) {
	f := flag.Lookup("test.timeout")
	if f == nil {
		return func() {}
	}
	timeout, _ := f.Value.(flag.Getter).Get().(time.Duration)
	if timeout <= 0 {
		return func() {}
	}
	margin := guardMargin(timeout)
	ctx, cancel := context.WithTimeout(context.Background(), timeout-margin)
	testCtx = ctx
	go func() {
		<-ctx.Done()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			fmt.Fprintf(os.Stderr, "live tests: %v before go test's -timeout %v: every once the tests run is interrupted so that their cleanups run\n", margin, timeout)
		}
	}()
	return cancel
}

// onceCmd is the command that runs once with args, interrupted when
// testCtx ends (guarded).
func onceCmd(args ...string) *exec.Cmd {
	return guarded(exec.CommandContext(testCtx, onceBinary, args...))
}

// shellCmd is sh -c script, interrupted when testCtx ends (guarded): a
// replay line as a user would paste it.
func shellCmd(script string) *exec.Cmd {
	return guarded(exec.CommandContext(testCtx, "sh", "-c", script))
}

// guarded makes cmd a process group of its own, interrupted (SIGINT to
// the group, Ctrl-C) when its context ends and killed 20 s later if it
// has not exited, and killed with the test binary (dieWithTest).
func guarded(cmd *exec.Cmd) *exec.Cmd {
	dieWithTest(cmd)
	ownGroup(cmd)
	cmd.Cancel = func() error { return interruptGroup(cmd.Process) }
	cmd.WaitDelay = 20 * time.Second
	return cmd
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "once-live-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "live tests:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	onceBinary = filepath.Join(dir, "once")
	build := exec.Command("go", "build", "-o", onceBinary, "github.com/oncesim/once/cmd/once")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "live tests: building once:", err)
		return 1
	}
	flag.Parse()
	if child := os.Getenv(guardChildEnv); child != "" {
		defer guardTimeout()()
		return guardChild(child)
	}
	defer guardTimeout()()
	return m.Run()
}

// postgresDSN returns the DSN of the PostgreSQL tests (ONCE_TEST_POSTGRES).
// Without it the test is skipped — except in CI, where it fails: CI must
// run them.
func postgresDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("ONCE_TEST_POSTGRES")
	if dsn != "" {
		return dsn
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("ONCE_TEST_POSTGRES is not set: CI must run the PostgreSQL tests (.ci/run sets it up)")
	}
	t.Skip("ONCE_TEST_POSTGRES is not set (a postgres:// DSN); .ci/postgres sets one up")
	return ""
}
