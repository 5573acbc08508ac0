package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/pflag"
)

// profileFlags are --cpuprofile and --memprofile, for the long commands
// (matrix, sweep, explore): pprof files to read with `go tool pprof`.
type profileFlags struct {
	cpu, mem string
}

func (p *profileFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile to FILE (read it with go tool pprof)")
	fl.StringVar(&p.mem, "memprofile", "", "write a heap profile to FILE when the command ends")
}

// around runs f with the CPU profile on, and writes the heap profile after.
// A profile that cannot be written is a usage error (a bad path), found
// before the work starts where it can be.
func (p *profileFlags) around(f func() error) error {
	if p.cpu != "" {
		out, err := os.Create(p.cpu)
		if err != nil {
			return usageErr("--cpuprofile: %v", err)
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			return usageErr("--cpuprofile: %v", err)
		}
		defer pprof.StopCPUProfile()
	}
	var mem *os.File
	if p.mem != "" {
		var err error
		if mem, err = os.Create(p.mem); err != nil {
			return usageErr("--memprofile: %v", err)
		}
		defer mem.Close()
	}
	err := f()
	if mem != nil {
		runtime.GC()
		if werr := pprof.WriteHeapProfile(mem); werr != nil && err == nil {
			err = fmt.Errorf("--memprofile: %w", werr)
		}
	}
	return err
}
