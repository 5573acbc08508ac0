//go:build integration

package live

import (
	"os/exec"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

// TestIntegrationParallelRunsIsolated points two runs at once at ONE
// naive Go service, each with a provider on a port of its own
// (--provider-addr 127.0.0.1:0), which the service learns from the
// X-Once-Provider header (its $ONCE_PROVIDER_URL names a port nobody
// listens on): each run sees its own charges only, so the two give the
// effects the same run gives alone. Were the charges of one run counted
// by the other (they are named by amount), the counts would double.
func TestIntegrationParallelRunsIsolated(t *testing.T) {
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "naive"), "../examples/live/go/naive")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build naive: %v\n%s", err, out)
	}
	target := startService(t, "127.0.0.1:1", filepath.Join(bin, "naive"))
	args := []string{"live", "double-billing", "--semantics", "idem", "--seed", "1", "--dup", "0.3", "--loss", "0", "--ack-loss", "0",
		"--target", target, "--provider-addr", "127.0.0.1:0", "--format", "json"}
	out, errs, code := onceQuiet(args...)
	if code != 0 {
		t.Fatalf("alone: exit %d: %s", code, errs)
	}
	alone := liveJSON(t, out)
	if alone.Status != "violated" || alone.Live == nil || alone.Live.Provider == "http://127.0.0.1:0" {
		t.Fatalf("alone: %s, live %+v: want the naive service violated, the provider's chosen port named", alone.Status, alone.Live)
	}
	twice := false
	for _, n := range effectsOf(alone) {
		twice = twice || n >= 2
	}
	if !twice {
		t.Fatalf("alone: effects %v: want an operation charged twice at the run's own provider", effectsOf(alone))
	}
	var wg sync.WaitGroup
	got := make([]string, 2)
	codes := make([]int, 2)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _, codes[i] = onceQuiet(args...)
		}()
	}
	wg.Wait()
	for i, out := range got {
		if codes[i] != 0 {
			t.Fatalf("parallel run %d: exit %d", i+1, codes[i])
		}
		r := liveJSON(t, out)
		if r.Status != alone.Status || !reflect.DeepEqual(effectsOf(r), effectsOf(alone)) {
			t.Errorf("parallel run %d: %s %v, alone %s %v", i+1, r.Status, effectsOf(r), alone.Status, effectsOf(alone))
		}
	}
}
