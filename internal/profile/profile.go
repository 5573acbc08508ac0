// Package profile writes the pprof files of --cpuprofile and --memprofile
// around a long command (matrix, sweep, explore), to read with `go tool
// pprof`.
package profile

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Around runs f with a CPU profile written to cpu (if not empty) and a
// heap profile written to mem after it (if not empty). A profile file
// that cannot be created is an error before f runs, named by its flag.
func Around(cpu, mem string, f func() error) error {
	if cpu != "" {
		out, err := os.Create(cpu)
		if err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	var heap *os.File
	if mem != "" {
		var err error
		if heap, err = os.Create(mem); err != nil {
			return fmt.Errorf("--memprofile: %w", err)
		}
		defer heap.Close()
	}
	err := f()
	if heap != nil {
		runtime.GC()
		if werr := pprof.WriteHeapProfile(heap); werr != nil && err == nil {
			err = fmt.Errorf("--memprofile: %w", werr)
		}
	}
	return err
}
