//go:build integration

package live

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// guardChildEnv, when set, makes the test binary run guardChild instead
// of its tests (TestIntegrationDeadlineGuard starts it so).
const guardChildEnv = "ONCE_LIVE_GUARD_CHILD"

// guardChild runs once live against a service that answers GET / and
// never answers a payment, under the binary's -test.timeout: a run that
// would go on until its own deadline. It says how once ended and its pid,
// for TestIntegrationDeadlineGuard to read.
func guardChild(string) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "guard child:", err)
		return 1
	}
	hang := make(chan struct{})
	defer close(hang)
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			return // ready
		}
		select { // a payment: no answer while the run lasts
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	cmd := onceCmd("live", "double-billing", "--semantics", "idem", "--seed", "1", "--target", "http://"+ln.Addr().String(), "--provider-addr", "127.0.0.1:0")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	began := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "guard child:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "guard child: once pid %d\n", cmd.Process.Pid)
	cmd.Wait()
	fmt.Fprintf(os.Stderr, "guard child: once exited %d after %.0f s\n%s", cmd.ProcessState.ExitCode(), time.Since(began).Seconds(), errb.String())
	return 0
}

// TestIntegrationDeadlineGuard: a once the tests start is interrupted
// before go test's -timeout ends the binary (testCtx), so it stops what
// it started and the test's cleanups get to run. The test binary runs
// itself as guardChild with -test.timeout 15s: once live, stuck on a
// service that never answers, is interrupted at 10 s (guardMargin's 5 s
// floor), exits 3 (interrupted, as after Ctrl-C) with its line saying
// so, and leaves no process of its group; the binary ends without go
// test's "test timed out" panic.
func TestIntegrationDeadlineGuard(t *testing.T) {
	if m := guardMargin(30 * time.Second); m != 5*time.Second {
		t.Fatalf("guardMargin(30s) = %v, want the 5 s floor", m)
	}
	if m := guardMargin(10 * time.Minute); m != time.Minute {
		t.Fatalf("guardMargin(10m) = %v, want a minute", m)
	}
	cmd := exec.Command(os.Args[0], "-test.timeout=15s")
	cmd.Env = append(os.Environ(), guardChildEnv+"=1")
	dieWithTest(cmd)
	out, err := cmd.CombinedOutput()
	text := string(out)
	if err != nil || strings.Contains(text, "test timed out") {
		t.Fatalf("the child binary: %v, want it to end before its timeout:\n%s", err, text)
	}
	if !strings.Contains(text, "every once the tests run is interrupted") {
		t.Errorf("the guard did not say it interrupted:\n%s", text)
	}
	exit := regexp.MustCompile(`once exited (-?\d+) after (\d+) s`).FindStringSubmatch(text)
	if exit == nil || exit[1] != "3" {
		t.Fatalf("once live under the guard: want exit 3 (interrupted):\n%s", text)
	}
	if s, _ := strconv.Atoi(exit[2]); s < 8 {
		t.Errorf("once was interrupted after %d s, want about 10 (the timeout less the margin):\n%s", s, text)
	}
	pid := regexp.MustCompile(`once pid (\d+)`).FindStringSubmatch(text)
	if pid == nil {
		t.Fatalf("no pid:\n%s", text)
	}
	p, _ := strconv.Atoi(pid[1])
	if err := syscall.Kill(-p, 0); err == nil {
		t.Errorf("a process of once's group %d is still running after the guard interrupted it", p)
	}
}
