package main

import (
	"github.com/spf13/pflag"

	"github.com/oncesim/once/internal/profile"
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

// around runs f between the profiles (see profile.Around); a profile that
// cannot be created is a usage error.
func (p *profileFlags) around(f func() error) error {
	var ferr error
	err := profile.Around(p.cpu, p.mem, func() error { ferr = f(); return ferr })
	if err != nil && err != ferr {
		return usageErr("%v", err)
	}
	return err
}
