package runs

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// StartupEnv names the environment variable that asks for the start-up
// measure: when it is set, the process writes to standard error, once, the
// CPU time (user + system) it spent from exec to the first event of its
// first run — what `make bench-peer` reports as start-up. Nothing else
// reads it, and the run's own output is unchanged.
const StartupEnv = "ONCE_STARTUP_CPU"

var startupOnce sync.Once

// noteStartup writes the start-up measure if StartupEnv asks for it.
//
//go:noinline
func noteStartup() {
	startupOnce.Do(func() {
		if os.Getenv(StartupEnv) == "" {
			return
		}
		cpu, ok := processCPU()
		if !ok {
			fmt.Fprintln(os.Stderr, "once: start-up CPU is not measured on this system")
			return
		}
		fmt.Fprintf(os.Stderr, "once: start-up %.2f ms CPU to the first event\n", float64(cpu)/float64(time.Millisecond))
	})
}
