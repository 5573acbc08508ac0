//go:build integration

package live

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestIntegrationSuitePayments runs once live --suite payments against
// the Go examples, the two suites at once (each service with a provider
// of its own): the naive service fails the rows its bug shows in (exit
// 1, the duplicated row's seed with its charge ids and a live replay
// line, which run again gives the violation again; the double click
// charged twice); the idempotent one holds every row (exit 0), the double
// click too. One seed per row at exampleTick: a few seconds, the two in
// parallel (the idempotent one once charged a double click twice at this
// tick: TestActivityMovesAnInferredCallWhenItsAttemptAnswers).
func TestIntegrationSuitePayments(t *testing.T) {
	bin := t.TempDir()
	for _, ex := range []string{"naive", "idempotent"} {
		build := exec.Command("go", "build", "-o", filepath.Join(bin, ex), "../examples/live/go/"+ex)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", ex, err, out)
		}
	}
	type result struct {
		out, errs string
		code      int
	}
	results := map[string]*result{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, ex := range []string{"naive", "idempotent"} {
		provider := freeAddr(t)
		target := startService(t, provider, filepath.Join(bin, ex))
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, errs, code := onceQuiet("live", "--suite", "payments", "--seeds", "1", "--target", target, "--provider-addr", provider, "--tick", exampleTick)
			mu.Lock()
			results[ex] = &result{out, errs, code}
			mu.Unlock()
		}()
	}
	wg.Wait()
	naive, idem := results["naive"], results["idempotent"]
	if idem.code != 0 || !strings.Contains(idem.out, "suite verdict: held") || strings.Contains(idem.out, "violated") {
		t.Errorf("the idempotent service: exit %d, want 0 with every row held:\n%s\n%s", idem.code, idem.out, idem.errs)
	}
	if naive.code != 1 || !strings.Contains(naive.out, "suite verdict: violated") {
		t.Fatalf("the naive service: exit %d, want 1:\n%s\n%s", naive.code, naive.out, naive.errs)
	}
	dupRow := regexp.MustCompile(`(?m)^│ double-billing +│ duplicated requests.*│ violated +│ seed 1 op-\d+: \d+, \d+`)
	if !dupRow.MatchString(naive.out) {
		t.Errorf("the naive service: no violated dup row with its seed and charge ids:\n%s", naive.out)
	}
	clickRow := regexp.MustCompile(`(?m)^│ concurrent-same-key +│ the double click.*│ (violated|held) +│ (seed 1 op-\d+: \d+, \d+|–)`)
	if m := clickRow.FindStringSubmatch(naive.out); m == nil || m[1] != "violated" {
		t.Errorf("the naive service: the double click not violated with its charge ids:\n%s", naive.out)
	}
	if m := clickRow.FindStringSubmatch(idem.out); m == nil || m[1] != "held" {
		t.Errorf("the idempotent service: the double click not held:\n%s", idem.out)
	}
	if n := strings.Count(naive.out, "not run: give --restart-cmd"); n != 3 {
		t.Errorf("the crash rows without --restart-cmd: %d said not run, want 3:\n%s", n, naive.out)
	}
	var replay string
	for _, line := range strings.Split(naive.out, "\n") {
		if rest, ok := strings.CutPrefix(line, "replay: once live double-billing "); ok && strings.Contains(rest, "--dup 0.3") {
			replay = rest
		}
	}
	if replay == "" || !strings.Contains(replay, "--target ") || !strings.Contains(replay, "--provider-addr ") {
		t.Fatalf("the naive service: no live replay line of the dup row with its --target and --provider-addr:\n%s", naive.out)
	}
	cmd := shellCmd(onceBinary + " live double-billing " + replay + " --check")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || !charged.MatchString(out.String()) {
		t.Errorf("the replay line %q: %v, want exit 1 with an operation charged twice:\n%s", replay, err, out.String())
	}
}

// onceQuiet runs once from any goroutine (no t.Fatal) and returns its
// output and exit code (-1 when it could not run).
func onceQuiet(args ...string) (stdout, stderr string, code int) {
	cmd := onceCmd(args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), exit.ExitCode()
	} else if err != nil {
		return out.String(), err.Error(), -1
	}
	return out.String(), errb.String(), 0
}
