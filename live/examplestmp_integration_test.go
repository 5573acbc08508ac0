//go:build integration

package live

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIntegrationExamplesRemoveTheirTempDirs: an example service started
// without KEYS_DB keeps its keys in a temporary folder, and removes it
// when stopped with SIGTERM or Ctrl-C (the Go idempotent service left
// /tmp/idem-go-* behind on every start). Each runs with TMPDIR set to a
// folder of the test's, which must be empty after the stop.
func TestIntegrationExamplesRemoveTheirTempDirs(t *testing.T) {
	python := needPython(t, "the Python examples' temporary folders")
	bin := filepath.Join(t.TempDir(), "idempotent")
	if out, err := exec.Command("go", "build", "-o", bin, "../examples/live/go/idempotent").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name string
		argv []string
		sig  syscall.Signal
	}{
		{"go idempotent, SIGTERM", []string{bin}, syscall.SIGTERM},
		{"go idempotent, Ctrl-C", []string{bin}, syscall.SIGINT},
		{"python idempotent, SIGTERM", []string{python, "../examples/live/python/idempotent_service.py"}, syscall.SIGTERM},
		{"python careful, SIGTERM", []string{python, "../examples/live/python/careful_service.py"}, syscall.SIGTERM},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			addr := freeAddr(t)
			_, port, _ := net.SplitHostPort(addr)
			cmd := exec.Command(c.argv[0], append(c.argv[1:], port)...)
			cmd.Env = append(withoutEnv(os.Environ(), "KEYS_DB"), "TMPDIR="+tmp, ProviderEnv+"=http://"+freeAddr(t))
			dieWithTest(cmd)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
			if !waitFor(20*time.Second, func() bool {
				conn, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
				if err == nil {
					conn.Close()
				}
				return err == nil
			}) {
				t.Fatalf("%s did not listen on %s", c.name, addr)
			}
			if left, _ := os.ReadDir(tmp); len(left) == 0 {
				t.Fatalf("%s made no temporary folder in TMPDIR: is KEYS_DB still set?", c.name)
			}
			cmd.Process.Signal(c.sig)
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still running 10 s after %v", c.name, c.sig)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				var names []string
				for _, e := range left {
					names = append(names, e.Name())
				}
				t.Errorf("%s left %s in TMPDIR after %v", c.name, strings.Join(names, ", "), c.sig)
			}
		})
	}
}

// withoutEnv returns env without the variable name.
func withoutEnv(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
