// Package profile writes the pprof files of --cpuprofile and --memprofile
// around a long command (matrix, sweep, explore), to read with `go tool
// pprof`.
package profile

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/pprof"

	"github.com/oncesim/once/internal/fileio"
)

// Around runs f with a CPU profile written to cpu (if not empty) and a
// heap profile written to mem after it (if not empty). A profile file
// that cannot be created, or a path that holds something other than a
// regular file (a device, a FIFO, a symbolic link, a directory), is an
// error before f runs, named by its flag. Each profile is written beside
// its path and renamed into place when f ends (fileio.Create).
func Around(cpu, mem string, f func() error) (err error) {
	var cpuOut, heap *fileio.Pending
	defer func() { // on an early error, nothing is left behind
		for _, p := range []*fileio.Pending{cpuOut, heap} {
			if p != nil && err != nil {
				p.Abort()
			}
		}
	}()
	if cpu != "" {
		if cpuOut, err = fileio.Create(cpu); err != nil {
			return fmt.Errorf("--cpuprofile %w", err)
		}
	}
	if mem != "" {
		if heap, err = fileio.Create(mem); err != nil {
			return fmt.Errorf("--memprofile %w", err)
		}
	}
	if cpuOut != nil {
		if err = pprof.StartCPUProfile(cpuOut); err != nil {
			return fmt.Errorf("--cpuprofile %s: %w", cpu, err)
		}
	}
	ferr := f()
	var errs []error
	if cpuOut != nil {
		pprof.StopCPUProfile()
		if cerr := cpuOut.Commit(); cerr != nil {
			errs = append(errs, fmt.Errorf("--cpuprofile %w", cerr))
		}
		cpuOut = nil
	}
	if heap != nil {
		runtime.GC()
		if werr := pprof.WriteHeapProfile(heap); werr != nil {
			heap.Abort()
			errs = append(errs, fmt.Errorf("--memprofile %s: %w", mem, werr))
		} else if cerr := heap.Commit(); cerr != nil {
			errs = append(errs, fmt.Errorf("--memprofile %w", cerr))
		}
		heap = nil
	}
	if ferr != nil {
		return ferr
	}
	return errors.Join(errs...)
}
