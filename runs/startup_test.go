package runs

import (
	"io"
	"os"
	"regexp"
	"sync"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestStartupMeasureOnRequest: with ONCE_STARTUP_CPU set, the first run of
// the process writes one line with its CPU time to standard error, and
// later runs write nothing; without it, nothing is written.
func TestStartupMeasureOnRequest(t *testing.T) {
	sc := lookup(t, "double-billing")
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 3, Faults: sc.Faults}
	stderr := func(env string, runs int) string {
		t.Helper()
		startupOnce = sync.Once{}
		t.Setenv(StartupEnv, env)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		saved := os.Stderr
		os.Stderr = w
		for range runs {
			if _, err := Execute(sc, set, sim.NewRandom(1), Options{}); err != nil {
				os.Stderr = saved
				t.Fatal(err)
			}
		}
		os.Stderr = saved
		w.Close()
		out, _ := io.ReadAll(r)
		return string(out)
	}
	line := regexp.MustCompile(`^once: start-up [0-9]+\.[0-9]{2} ms CPU to the first event\n$`)
	if got := stderr("1", 3); !line.MatchString(got) {
		t.Errorf("with %s=1 over 3 runs, standard error = %q, want one start-up line", StartupEnv, got)
	}
	if got := stderr("", 2); got != "" {
		t.Errorf("without %s, standard error = %q, want nothing", StartupEnv, got)
	}
}
