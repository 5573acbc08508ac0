//go:build integration

package live

import (
	"os"
	"os/exec"
	"syscall"
)

// dieWithTest has the kernel kill cmd's process when the test binary
// dies, whatever way it dies: a test that times out panics without running
// its cleanups, and a service it started would otherwise be left running.
func dieWithTest(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// ownGroup starts cmd in a process group of its own (interruptGroup).
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// interruptGroup sends SIGINT to the process group p leads (ownGroup): a
// shell and the once it runs alike, as a terminal's Ctrl-C does.
func interruptGroup(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGINT) }
