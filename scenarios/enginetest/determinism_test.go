package enginetest_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// runDigest is one seeded run of a scenario under sem; it returns the
// outcome digest.
func runDigest(t testing.TB, cfg *sim.Config, seed uint64, rec sim.Recorder) sim.Digest {
	w, err := sim.NewWorld(cfg, sim.NewRandom(seed), rec)
	if err != nil {
		t.Fatal(err)
	}
	return w.Run().Digest
}

// determinismConfigs are the worlds the determinism tests run: both
// scenarios under every semantics they support, with crashes and
// duplicates switched on so that every kind of choice is exercised.
func determinismConfigs(t testing.TB) []*sim.Config {
	var out []*sim.Config
	for _, name := range []string{"double-billing", "at-least-once-duplicate"} {
		sc, err := scenarios.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		f := sc.Faults
		f.Probability[sim.FaultCrash], f.Probability[sim.FaultDup], f.Probability[sim.FaultSlow] = 0.2, 0.1, 0.05
		for _, sem := range sc.Semantics {
			cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: 10, Faults: f})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, cfg)
		}
	}
	return out
}

const determinismSeeds = 30

// digestTable returns the digest of every (config, seed) pair, in order.
func digestTable(t testing.TB, cfgs []*sim.Config) []sim.Digest {
	var out []sim.Digest
	for _, cfg := range cfgs {
		for seed := uint64(0); seed < determinismSeeds; seed++ {
			out = append(out, runDigest(t, cfg, seed, nil))
		}
	}
	return out
}

// TestSameSeedSameTrace checks that one config and one seed always give
// the same trace, event for event, and the same digest; that the digest is
// the digest of that trace; and that the seed matters.
func TestSameSeedSameTrace(t *testing.T) {
	for _, cfg := range determinismConfigs(t) {
		digests := map[sim.Digest]bool{}
		for seed := uint64(0); seed < determinismSeeds; seed++ {
			var a, b sim.Trace
			da, db := runDigest(t, cfg, seed, &a), runDigest(t, cfg, seed, &b)
			if da != db || !slices.Equal(a.Events, b.Events) {
				t.Fatalf("%s seed %d: two runs differ (digests %016x, %016x; %d and %d events)",
					cfg.Semantics, seed, da, db, len(a.Events), len(b.Events))
			}
			if d := sim.DigestOf(cfg.Topology, a.Events); d != da {
				t.Fatalf("%s seed %d: DigestOf(trace) = %016x, outcome digest %016x", cfg.Semantics, seed, d, da)
			}
			for i := range a.Events {
				if a.Events[i].Seq != uint32(i) || (i > 0 && a.Events[i].At < a.Events[i-1].At) {
					t.Fatalf("%s seed %d: event %d has Seq %d at %s after %s", cfg.Semantics, seed, i, a.Events[i].Seq, a.Events[i].At, a.Events[i-1].At)
				}
			}
			digests[da] = true
		}
		if len(digests) < determinismSeeds/2 {
			t.Fatalf("%s: %d seeds gave only %d different traces", cfg.Semantics, determinismSeeds, len(digests))
		}
	}
}

// TestDeterministicAcrossGoroutines runs the same table of seeded runs in
// several goroutines at once, sharing each Config, under GOMAXPROCS 1, 2
// and 8: every run is single-threaded, so every digest must match the
// serial ones.
func TestDeterministicAcrossGoroutines(t *testing.T) {
	cfgs := determinismConfigs(t)
	want := digestTable(t, cfgs)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		const workers = 6
		got := make([][]sim.Digest, workers)
		var wg sync.WaitGroup
		for i := range workers {
			wg.Go(func() { got[i] = digestTable(t, cfgs) })
		}
		wg.Wait()
		for i := range got {
			if !slices.Equal(got[i], want) {
				t.Fatalf("GOMAXPROCS=%d worker %d: digests differ from the serial run", procs, i)
			}
		}
	}
}

const helperEnv = "ONCE_SIM_DIGEST_HELPER"

// TestHelperProcess is not a test: run by TestDeterministicAcrossProcesses
// in a child process, it prints the digest table.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("helper process for TestDeterministicAcrossProcesses")
	}
	for i, d := range digestTable(t, determinismConfigs(t)) {
		fmt.Printf("digest %d %016x\n", i, uint64(d))
	}
}

// TestDeterministicAcrossProcesses re-executes this test binary with
// GOMAXPROCS=1 to compute the digest table in a fresh process (fresh map
// seeds, fresh heap, another scheduler) and compares it with this
// process's table.
func TestDeterministicAcrossProcesses(t *testing.T) {
	if os.Getenv(helperEnv) == "1" {
		t.Skip("inside the helper")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=1", "GOMAXPROCS=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper process: %v\n%s\n%s", err, out, stderr.String())
	}
	var child []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "digest "); ok {
			child = append(child, line)
		}
	}
	want := digestTable(t, determinismConfigs(t))
	if len(child) != len(want) {
		t.Fatalf("helper printed %d digests, want %d\n%s", len(child), len(want), out)
	}
	for i, d := range want {
		if mine := fmt.Sprintf("%d %016x", i, uint64(d)); child[i] != mine {
			t.Fatalf("digest %d: child process %q, this process %q", i, child[i], mine)
		}
	}
}
