//go:build integration

package live

import (
	"os/exec"
	"syscall"
)

// dieWithTest has the kernel kill cmd's process when the test binary
// dies, whatever way it dies: a test that times out panics without running
// its cleanups, and a service it started would otherwise be left running.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
