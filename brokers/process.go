package brokers

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// process is one child process of a server (the server itself, RabbitMQ's
// epmd): started in a process group of its own and killed by the kernel if
// this process dies, stopped by PID.
type process struct {
	name string
	cmd  *exec.Cmd
	// stdin is held open for the child's life: RabbitMQ's Erlang shell
	// halts the node when it reads end of file, so the node ends with this
	// process even if the parent-death signal did not reach it.
	stdin  io.WriteCloser
	waited chan struct{}
	err    error
}

// stopGrace is how long a process has to stop after its polite signal
// before it is killed; RabbitMQ takes 1–3 s on a loaded machine.
const stopGrace = 10 * time.Second

// startProcess starts a child that dies with this process (Pdeathsig) in
// a process group of its own (a stop kills its children too).
func startProcess(name string, cmd *exec.Cmd, out io.Writer) (*process, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Stdout, cmd.Stderr = out, out
	p := &process{name: name, cmd: cmd, waited: make(chan struct{})}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("brokers: %s: %w", name, err)
	}
	p.stdin = stdin
	if err := cmd.Start(); err != nil {
		stdin.Close()
		return nil, fmt.Errorf("brokers: start %s: %w", name, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.waited)
	}()
	return p, nil
}

// pid is the child's process id.
func (p *process) pid() int { return p.cmd.Process.Pid }

// exited is closed when the child has exited and was reaped.
func (p *process) exited() <-chan struct{} { return p.waited }

// stop sends sig, waits up to stopGrace, then kills the child's process
// group; it returns once the child is reaped. It is safe to call twice.
func (p *process) stop(sig syscall.Signal) error {
	select {
	case <-p.waited:
		p.stdin.Close()
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(sig)
	timer := time.NewTimer(stopGrace)
	defer timer.Stop()
	var err error
	select {
	case <-p.waited:
	case <-timer.C:
		err = fmt.Errorf("brokers: %s (pid %d) did not stop %s after %s: killed", p.name, p.pid(), sig, stopGrace)
		p.kill()
	}
	p.stdin.Close()
	// The group too: a child the server left (Erlang's erl_child_setup)
	// goes with it. ESRCH (the group is gone) is the usual answer.
	if e := syscall.Kill(-p.pid(), syscall.SIGKILL); e != nil && !errors.Is(e, syscall.ESRCH) && err == nil {
		err = fmt.Errorf("brokers: kill %s's group %d: %w", p.name, p.pid(), e)
	}
	return err
}

// kill ends the child and its group at once (SIGKILL) and reaps it: a
// crash, or the end of a stop that waited long enough.
func (p *process) kill() {
	_ = syscall.Kill(-p.pid(), syscall.SIGKILL)
	_ = p.cmd.Process.Kill()
	<-p.waited
}

// lookBinary finds a server's executable: on PATH, else at the
// distribution's path.
func lookBinary(name string, paths ...string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: %s (install it with make brokers)", ErrMissing, name)
}

// ErrMissing is returned, wrapped with the binary's name, when a server
// is not installed.
var ErrMissing = errors.New("broker server not installed")
