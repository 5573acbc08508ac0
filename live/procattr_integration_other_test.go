//go:build integration && !linux

package live

import (
	"os"
	"os/exec"
)

// dieWithTest is a no-op where the kernel offers no parent-death signal:
// there the tests' cleanups are the only stop.
func dieWithTest(*exec.Cmd) {}

// ownGroup is a no-op here: interruptGroup interrupts the process alone.
func ownGroup(*exec.Cmd) {}

// interruptGroup sends p an interrupt.
func interruptGroup(p *os.Process) error { return p.Signal(os.Interrupt) }
