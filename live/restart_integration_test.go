//go:build integration

package live

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withEnv lists the processes whose environment holds entry (the PIDFILE
// the restart script gives every service it starts), as "pid cmdline".
func withEnv(entry string) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil {
			continue // gone, or not ours
		}
		for _, e := range strings.Split(string(env), "\x00") {
			if e == entry {
				cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
				out = append(out, filepath.Base(d)+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
				break
			}
		}
	}
	return out
}

// restartable starts an example service with examples/live/restart.sh and
// returns its URL and the --restart-cmd that kills and restarts it. On
// every path of the test, the service it runs last is killed and no
// process started with its PIDFILE may be left (a process scan).
func restartable(t *testing.T, provider string, argv ...string) (target, restartCmd string) {
	t.Helper()
	script, err := filepath.Abs("../examples/live/restart.sh")
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(t.TempDir(), "svc.pid")
	_, port, _ := net.SplitHostPort(freeAddr(t))
	quoted := []string{script, pidfile, port}
	for _, a := range argv {
		if strings.ContainsAny(a, " '\"$`\\") {
			t.Fatalf("argument %q needs shell quoting", a)
		}
		quoted = append(quoted, a)
	}
	restartCmd = strings.Join(quoted, " ")
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidfile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		entry := "PIDFILE=" + pidfile
		left := withEnv(entry)
		for i := 0; i < 40 && len(left) > 0; i++ { // a killed process may take a moment to go
			time.Sleep(50 * time.Millisecond)
			left = withEnv(entry)
		}
		if len(left) > 0 {
			for _, p := range left {
				if pid, err := strconv.Atoi(strings.Fields(p)[0]); err == nil {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			t.Errorf("service processes left running after the test: %v", left)
		}
	})
	first := exec.Command("sh", "-c", restartCmd)
	first.Env = append(os.Environ(), ProviderEnv+"=http://"+provider)
	if out, err := first.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", restartCmd, err, out)
	}
	if len(withEnv("PIDFILE="+pidfile)) == 0 {
		t.Fatalf("the process scan does not see the service %s started", restartCmd)
	}
	return "http://127.0.0.1:" + port, restartCmd
}

// TestIntegrationTargetRestart crashes the example services under
// --target by their restart script (--restart-cmd): the idempotent one
// (keys in SQLite, PROCESSING keys resolved at start by a lookup) passes
// --check on every seed with crashes in the trace; the naive one charges
// twice on some seed. The three services run in parallel (each with its
// own port, provider and keys), at exampleTick.
func TestIntegrationTargetRestart(t *testing.T) {
	python := needPython(t, "the --restart-cmd examples")
	seeds := envSeeds("ONCE_RESTART_SEEDS", 3)
	bin := filepath.Join(t.TempDir(), "idempotent")
	if out, err := exec.Command("go", "build", "-o", bin, "../examples/live/go/idempotent").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name  string
		argv  []string
		naive bool
		seeds int
	}{
		{"python idempotent", []string{python, "../examples/live/python/idempotent_service.py"}, false, seeds},
		{"python naive", []string{python, "../examples/live/python/naive_service.py"}, true, 5},
		{"go idempotent", []string{bin}, false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for i, a := range c.argv {
				if strings.HasPrefix(a, "../") {
					c.argv[i], _ = filepath.Abs(a)
				}
			}
			provider := freeAddr(t)
			target, restartCmd := restartable(t, provider, c.argv...)
			crashes, doubled := 0, false
			for seed := 1; seed <= c.seeds; seed++ {
				out, errs, code := once(t, "live", "double-billing", "--semantics", "idem", "--target", target,
					"--provider-addr", provider, "--crash", "0.3", "--restart-cmd", restartCmd, "--check",
					"--seed", strconv.Itoa(seed), "--format", "trace", "-v", "--tick", exampleTick)
				crashes += strings.Count(out, "CRASH")
				if strings.Count(out, "CRASH") != strings.Count(out, "RESTART") {
					t.Errorf("seed %d: %d crashes, %d restarts:\n%s", seed, strings.Count(out, "CRASH"), strings.Count(out, "RESTART"), out)
				}
				if !strings.Contains(errs, "crashes by --restart-cmd") {
					t.Errorf("seed %d: the run does not say the service is crashed by --restart-cmd:\n%s", seed, errs)
				}
				if c.naive {
					if code == 1 {
						doubled = true
						break
					}
					continue
				}
				if code != 0 {
					t.Fatalf("seed %d: exit %d, want 0:\n%s\n%s", seed, code, out, errs)
				}
				if strings.Count(errs, "--restart-cmd ran") != strings.Count(out, "RESTART") {
					t.Errorf("seed %d: %d runs of --restart-cmd logged, %d restarts in the trace", seed,
						strings.Count(errs, "--restart-cmd ran"), strings.Count(out, "RESTART"))
				}
			}
			if crashes == 0 && !c.naive {
				t.Errorf("no crash in %d seeds at --crash 0.3", c.seeds)
			}
			if c.naive && !doubled {
				t.Errorf("the naive service passed --check on seeds 1–%d with crashes: want a double charge", c.seeds)
			}
		})
	}
	// A command that fails ends the run with one line naming it.
	provider := freeAddr(t)
	target, _ := restartable(t, provider, python, mustAbs(t, "../examples/live/python/naive_service.py"))
	_, errs, code := once(t, "live", "double-billing", "--semantics", "idem", "--target", target, "--provider-addr", provider,
		"--crash", "0.9", "--restart-cmd", "echo cannot; exit 3", "--seed", "1")
	if code == 0 || !strings.Contains(errs, `--restart-cmd "echo cannot; exit 3": exit status 3: "cannot"`) {
		t.Errorf("a failing --restart-cmd: exit %d:\n%s", code, errs)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
