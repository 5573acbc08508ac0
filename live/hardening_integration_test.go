//go:build integration

package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/oncesim/once/internal/syncbuf"
)

// naiveTarget is a payment service of the --target contract in the test
// process: each POST /payments charges the provider once and answers its
// charge id; any other request is answered 200 (the restart's "answers
// again" check).
func naiveTarget(t *testing.T, provider string) *httptest.Server {
	t.Helper()
	client := &http.Client{Timeout: 30 * time.Second}
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != PathPayments {
			return
		}
		body, _ := io.ReadAll(r.Body)
		resp, err := client.Post("http://"+provider+PathCharges, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, "provider: "+err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		var c chargeResponse
		json.NewDecoder(resp.Body).Decode(&c)
		writeJSON(w, http.StatusCreated, c)
	}))
	t.Cleanup(svc.Close)
	return svc
}

// onceIn runs the once binary with TMPDIR set to tmp and returns its
// output, exit code and peak resident memory.
func onceIn(t *testing.T, tmp string, args ...string) (stdout, stderr string, code int, maxRSS int64) {
	t.Helper()
	cmd := onceCmd(args...)
	cmd.Dir, cmd.Env = tmp, append(os.Environ(), "TMPDIR="+tmp)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("once %s: %v", strings.Join(args, " "), err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode(), maxRSS
}

// leftIn lists what a run left in dir: its temporary directories and
// --restart-cmd logs.
func leftIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) || strings.HasPrefix(e.Name(), restartLogPrefix) {
			left = append(left, e.Name())
		}
	}
	return left
}

// A restart command that writes gigabytes costs once neither memory nor
// disk, and its log is gone after the run (issue 35: 'head -c 5000000000
// /dev/zero' took 9.8 GB of RSS and left a 4.7 GB log).
func TestIntegrationRestartOutputBounded(t *testing.T) {
	tmp := t.TempDir()
	provider := freeAddr(t)
	svc := naiveTarget(t, provider)
	written := int64(300_000_000) // three times the RSS bound; ONCE_TEST_RESTART_BYTES for more
	if n, err := strconv.ParseInt(os.Getenv("ONCE_TEST_RESTART_BYTES"), 10, 64); err == nil {
		written = n
	}
	cmd := fmt.Sprintf("head -c %d /dev/zero; echo; echo restarted; exit 0", written)
	began := time.Now()
	_, errs, code, rss := onceIn(t, tmp, "live", "double-billing", "--semantics", "alo", "--seed", "1", "--ops", "1",
		"--target", svc.URL, "--provider-addr", provider, "--crash", "0.5", "--restart-cmd", cmd, "-v")
	t.Logf("once's peak RSS with %d bytes of restart output at each of %d crash(es): %.1f MB (%s)",
		written, strings.Count(errs, "--restart-cmd ran"), float64(rss)/1e6, time.Since(began).Round(time.Second))
	if code != 0 || !strings.Contains(errs, "--restart-cmd ran") {
		t.Fatalf("exit %d, no restart ran:\n%.3000s", code, errs)
	}
	if rss > 100e6 {
		t.Errorf("once's peak RSS %d bytes: the command's output is read whole", rss)
	}
	if !strings.Contains(errs, `live:   | \x00\x00`) || !strings.Contains(errs, "live:   | restarted") {
		t.Errorf("the log's tail is not printed escaped:\n%.2000s", errs)
	}
	if left := leftIn(t, tmp); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

// The run's end kills a --restart-cmd still running with its process
// group, and removes its log.
func TestIntegrationRestartCutByTheRunsEnd(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	marker := filepath.Join(tmp, "still-running")
	done := make(chan struct{})
	time.AfterFunc(300*time.Millisecond, func() { close(done) })
	began := time.Now()
	_, err := runRestart("sleep 20 & wait; touch "+marker, os.Environ(), 30*time.Second, done)
	if err != errRestartCut {
		t.Errorf("runRestart: %v, want errRestartCut", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("the command ran %s after the run ended", took)
	}
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command went on after it was killed")
	}
	if left := leftIn(t, tmp); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

// A loopback target that redirects does not get the payment sent where it
// points: the run ends with one line naming the redirect, exit 2.
func TestIntegrationTargetRedirectNotFollowed(t *testing.T) {
	var elsewhere atomic.Int64
	away := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer away.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusFound} {
		svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == PathPayments {
				http.Redirect(w, r, away.URL+PathPayments, code)
			}
		}))
		_, errs, exit, _ := onceIn(t, t.TempDir(), "live", "double-billing", "--semantics", "idem", "--seed", "1", "--ops", "2",
			"--target", svc.URL, "--provider-addr", freeAddr(t))
		svc.Close()
		if exit != 2 || !strings.Contains(errs, "once follows no redirect") || !strings.Contains(errs, away.URL) {
			t.Errorf("%d: exit %d:\n%s", code, exit, errs)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the redirect's address got %d request(s)", n)
	}
}

// eval of --print-env runs nothing, whatever address it is given: a
// hostile one is refused (nothing printed), a valid one is quoted; and
// the quoting itself gives back, under sh, exactly the hostile strings.
func TestIntegrationPrintEnvEvalRunsNothing(t *testing.T) {
	tmp := t.TempDir()
	pwned := filepath.Join(tmp, "pwned")
	hostile := []string{"$(touch " + pwned + ")", "`touch " + pwned + "`", "x;touch " + pwned, "x' ; touch " + pwned + " ; '",
		"$(touch " + pwned + "):1", "127.0.0.1:1;touch " + pwned, "127.0.0.1:$(touch " + pwned + ")"}
	for _, addr := range hostile {
		for _, remote := range []bool{false, true} {
			args := []string{"live", "--print-env", "--provider-addr", addr}
			if remote {
				args = append(args, "--allow-remote")
			}
			out, errs, code, _ := onceIn(t, tmp, args...)
			if code != 2 || out != "" {
				t.Errorf("--provider-addr %q: exit %d, stdout %q, stderr %q; want refused", addr, code, out, errs)
			}
			if err := exec.Command("sh", "-c", `eval "$1"`, "sh", out).Run(); err != nil {
				t.Errorf("eval: %v", err)
			}
		}
		got, err := exec.Command("sh", "-c", `eval "X=$1"; printf %s "$X"`, "sh", ShellQuote(addr)).Output()
		if err != nil || string(got) != addr {
			t.Errorf("eval of ShellQuote(%q) gave %q (%v)", addr, got, err)
		}
	}
	out, _, code, _ := onceIn(t, tmp, "live", "--print-env", "--provider-addr", "127.0.0.1:5555")
	got, err := exec.Command("sh", "-c", `eval "$1"; printf %s "$ONCE_PROVIDER_URL"`, "sh", out).Output()
	if code != 0 || err != nil || string(got) != "http://127.0.0.1:5555" {
		t.Errorf("eval of %q: %q (%v, exit %d)", out, got, err, code)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("an eval ran the command inside an address")
	}
}

// procState is a process's state letter (R, S, T stopped, Z zombie), ""
// when it is gone.
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 {
		return f[0]
	}
	return ""
}

// SIGHUP (a closed terminal, an ssh session gone) ends once live as
// SIGTERM does: while the service is paused (SIGSTOP), once continues and
// stops it, removes its temporary directory — and its PostgreSQL schema
// when ONCE_TEST_POSTGRES names a database — and exits.
func TestIntegrationSIGHUPLeavesNothing(t *testing.T) {
	dbs := []string{""}
	if dsn := os.Getenv("ONCE_TEST_POSTGRES"); dsn != "" {
		dbs = append(dbs, dsn)
	}
	servicePid := regexp.MustCompile(`service pid (\d+)`)
	for _, dsn := range dbs {
		tmp := t.TempDir()
		args := []string{"live", "double-billing", "--semantics", "alo", "--seed", "1", "--ops", "3",
			"--pause", "0.9", "--pause-ms", "60000", "--verbose"}
		if dsn != "" {
			args = append(args, "--db", dsn)
		}
		cmd := onceCmd(args...)
		cmd.Dir, cmd.Env = tmp, append(os.Environ(), "TMPDIR="+tmp)
		var errb syncbuf.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		var pid int
		if !waitFor(30*time.Second, func() bool {
			for _, m := range servicePid.FindAllStringSubmatch(errb.String(), -1) {
				if p, _ := strconv.Atoi(m[1]); procState(p) == "T" {
					pid = p
					return true
				}
			}
			return false
		}) {
			cmd.Process.Kill()
			<-exited
			t.Fatalf("db %q: no service was paused within 30 s:\n%s", redact(dsn), errb.String())
		}
		cmd.Process.Signal(syscall.SIGHUP)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Fatalf("db %q: once still ran 15 s after SIGHUP:\n%s", redact(dsn), errb.String())
		}
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Errorf("db %q: once died by %s: the signal was not caught", redact(dsn), ws.Signal())
		}
		if !waitFor(5*time.Second, func() bool { s := procState(pid); return s == "" || s == "Z" }) {
			t.Errorf("db %q: the service (pid %d) is still there, state %s", redact(dsn), pid, procState(pid))
		}
		if left := leftIn(t, tmp); len(left) > 0 {
			t.Errorf("db %q: left in TMPDIR: %v", redact(dsn), left)
		}
		if dsn != "" {
			if n := schemasOf(t, dsn, cmd.Process.Pid); n > 0 {
				t.Errorf("db %q: %d schema(s) of the run left", redact(dsn), n)
			}
		}
	}
}

// schemasOf counts the schemas in dsn of the run whose once had pid.
func schemasOf(t *testing.T, dsn string, pid int) int {
	t.Helper()
	db, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	err = db.QueryRowContext(context.Background(), "SELECT count(*) FROM pg_namespace WHERE nspname LIKE $1",
		fmt.Sprintf("once\\_live\\_%d\\_%%", pid)).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
