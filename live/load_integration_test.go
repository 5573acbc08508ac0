//go:build integration

package live

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// burnCPU starts n processes that spin on a CPU each until the test ends
// (killed at cleanup, and by the kernel if the test binary dies first).
func burnCPU(t *testing.T, n int) {
	t.Helper()
	for range n {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		dieWithTest(cmd)
		if err := cmd.Start(); err != nil {
			t.Fatalf("start a CPU burner: %v", err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
}

// TestIntegrationAgreementUnderLoad runs the agreement subset with the CPU
// saturated by competing processes (two per core): every ordering that
// matters goes through the decider, the store gate's turns and the run's
// clock, never through the scheduler, so every verdict is the
// simulator's, and per-operation effects agree as they do on an idle
// machine (the 95 % bar of make live-agreement).
func TestIntegrationAgreementUnderLoad(t *testing.T) {
	var variants []Variant
	for _, v := range Variants() {
		for _, name := range agreementSubset {
			if v.String() == name {
				variants = append(variants, v)
			}
		}
	}
	if len(variants) != len(agreementSubset) {
		t.Fatalf("the subset's variants are gone from Variants: %v", variants)
	}
	burnCPU(t, 2*runtime.NumCPU())
	a := &Agreement{Binary: onceBinary, Tick: 2 * time.Millisecond, Seeds: 2, Jobs: 2, DSN: postgresDSN(t)}
	began := time.Now()
	if err := a.Run(context.Background(), variants); err != nil {
		t.Fatal(err)
	}
	ops, agree := a.Total()
	var b bytes.Buffer
	a.WriteMarkdown(&b, "the test, CPU saturated")
	runs, verdicts := 0, 0
	for _, r := range a.Rows {
		runs += r.Runs
		verdicts += r.VerdictsAgree
	}
	if runs == 0 || verdicts != runs {
		t.Errorf("%d of %d verdicts agree with the simulator under load, want all:\n%s", verdicts, runs, b.String())
	}
	if ops == 0 || 100*agree < 95*ops {
		t.Errorf("%d of %d operations agree under load, want at least 95 %%:\n%s", agree, ops, b.String())
	}
	t.Logf("CPU saturated (%d burners on %d cores): %d of %d verdicts, %d of %d operations agree, in %s",
		2*runtime.NumCPU(), runtime.NumCPU(), verdicts, runs, agree, ops, time.Since(began).Round(time.Second))
}
