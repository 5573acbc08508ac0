//go:build integration

package live

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// freeAddr returns a free port of 127.0.0.1.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startService starts one example service on a free port, with the
// provider's URL in its environment, and waits until it accepts
// connections; it is killed when the test ends.
func startService(t *testing.T, provider string, argv ...string) string {
	t.Helper()
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(argv[0], append(argv[1:], port)...)
	// KEYS_DB in the test's directory: a service killed with SIGKILL
	// cannot remove a temporary directory of its own.
	cmd.Env = append(os.Environ(), ProviderEnv+"=http://"+provider, "KEYS_DB="+filepath.Join(t.TempDir(), "keys.db"))
	cmd.Stderr = os.Stderr
	dieWithTest(cmd) // killed with the test binary, even on a timeout's panic
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if !waitFor(20*time.Second, func() bool {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Fatalf("%s did not listen on %s", strings.Join(argv, " "), addr)
	}
	return "http://" + addr
}

// needPython returns python3's path; without it the test skips, or fails
// under CI, which must run what (the examples that need it).
func needPython(t *testing.T, what string) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("python3 is not installed: CI must run %s", what)
		}
		t.Skip("python3 is not installed")
	}
	return python
}

// envSeeds is the positive number in the environment variable name, or
// def.
func envSeeds(name string, def int) int {
	if s, err := strconv.Atoi(os.Getenv(name)); err == nil && s > 0 {
		return s
	}
	return def
}

// exampleTick is the --tick of the runs against the example services of
// examples/live: 0.1 real millisecond per virtual one, ten times wall
// speed. docs/live.md's rule for --tick under --target: a service whose
// every timer reads X-Once-Now may run faster. The examples keep no
// clock of their own: the careful service counts its lease on
// X-Once-Now; the others have no timer. What is left is each service's
// safety timeout on a provider call (10 s, 30 s of real time), which the
// fault layer never reaches at this tick: it holds a call at most the
// scenario's late or slow delay or call-timeout (the suite's longest is
// the lease row's 2 s late: 0.2 s of real time here). A few runs against the examples stay at wall speed (--tick 1,
// the default): TestIntegrationTargetExamples' naive services and
// TestIntegrationLiveSaveReplay's.
const exampleTick = "0.1"

// charged is a ledger's duplicated operation: "charged twice ✗", or
// "charged 3 times ✗" past two.
var charged = regexp.MustCompile(`charged (twice|\d+ times) ✗`)

// TestIntegrationTargetExamples points once live --target at the example
// services of examples/live: the naive ones double-charge (exit 1, with
// the operation charged twice in the table; at wall speed, the default
// --tick), the idempotent ones pass --check on every seed (at
// exampleTick). The four services run in parallel, each with its own
// port and provider.
func TestIntegrationTargetExamples(t *testing.T) {
	python := needPython(t, "the --target examples")
	seeds := envSeeds("ONCE_TARGET_SEEDS", 20)
	bin := t.TempDir()
	for _, ex := range []string{"naive", "idempotent"} {
		build := exec.Command("go", "build", "-o", filepath.Join(bin, ex), "../examples/live/go/"+ex)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", ex, err, out)
		}
	}
	for _, c := range []struct {
		name  string
		argv  []string
		naive bool
	}{
		{"python naive", []string{python, "../examples/live/python/naive_service.py"}, true},
		{"python idempotent", []string{python, "../examples/live/python/idempotent_service.py"}, false},
		{"go naive", []string{filepath.Join(bin, "naive")}, true},
		{"go idempotent", []string{filepath.Join(bin, "idempotent")}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			provider := freeAddr(t)
			target := startService(t, provider, c.argv...)
			run := func(seed int, tick string) (string, int) {
				out, errs, code := once(t, "live", "double-billing", "--semantics", "idem", "--target", target,
					"--provider-addr", provider, "--check", "--seed", strconv.Itoa(seed), "--tick", tick)
				return out + errs, code
			}
			if c.naive {
				out, code := run(3, "1")
				if code != 1 || !charged.MatchString(out) || !strings.Contains(out, "effect ids") {
					t.Fatalf("seed 3: exit %d, want 1 with a duplicated operation and its charges:\n%s", code, out)
				}
				return
			}
			for seed := 1; seed <= seeds; seed++ {
				if out, code := run(seed, exampleTick); code != 0 {
					t.Fatalf("seed %d: exit %d, want 0:\n%s", seed, code, out)
				}
			}
		})
	}
	if _, _, code := once(t, "live", "double-billing", "--target", "http://192.0.2.1:8000"); code != 2 {
		t.Errorf("a target outside loopback without --allow-remote: exit %d, want 2", code)
	}
	if out, _, code := once(t, "live", "--print-env"); code != 0 || !strings.HasPrefix(out, "export "+ProviderEnv+"='http://") {
		t.Errorf("--print-env: exit %d: %q", code, out)
	}
}
