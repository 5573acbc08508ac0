package lab

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"
)

// maxLine bounds one line a node writes; a longer one breaks the protocol.
const maxLine = 1 << 20

// maxLog bounds the stderr a node's incarnation may show with --logs.
const maxLog = 64 << 10

// process is one incarnation of an external node: its own process group,
// stdin and stdout pipes, stderr in a temporary file (a file, not a pipe,
// so a chatty process never blocks on a reader the lock-step loop is not
// running).
type process struct {
	proc   *os.Process
	stdin  *os.File
	stdout *os.File
	out    *bufio.Reader
	stderr *os.File
	exited bool
	status string // how it ended, once known
}

// groups holds the process groups alive in this program, so an interrupt
// can kill them all (KillAll) from the signal handler's goroutine.
var groups = struct {
	sync.Mutex
	live        map[int]bool
	interrupted bool
}{live: map[int]bool{}}

// KillAll kills every process group the harness started and marks the
// program interrupted: the run stops at its next read with "interrupted".
// It is safe to call from a signal handler's goroutine.
func KillAll() {
	groups.Lock()
	defer groups.Unlock()
	groups.interrupted = true
	for pgid := range groups.live {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// ClearInterrupt forgets an interrupt KillAll recorded: the program goes
// on to start processes again (tests; a command that ends does not need it).
func ClearInterrupt() {
	groups.Lock()
	groups.interrupted = false
	groups.Unlock()
}

func interrupted() bool {
	groups.Lock()
	defer groups.Unlock()
	return groups.interrupted
}

// spawn starts argv in a new process group.
func spawn(argv []string, dir string) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errF, err := os.CreateTemp("", "once-lab-stderr-*")
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("stderr file: %w", err)
	}
	os.Remove(errF.Name()) // the open file is all we need
	groups.Lock()
	if groups.interrupted {
		groups.Unlock()
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		errF.Close()
		return nil, errInterrupted
	}
	p, err := os.StartProcess(argv[0], argv, &os.ProcAttr{
		Dir:   dir,
		Env:   os.Environ(),
		Files: []*os.File{inR, outW, errF},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err == nil {
		groups.live[p.Pid] = true
	}
	groups.Unlock()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errF.Close()
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	return &process{proc: p, stdin: inW, stdout: outR, out: bufio.NewReaderSize(outR, 64<<10), stderr: errF}, nil
}

var (
	errInterrupted = errors.New("interrupted")
	errTimeout     = errors.New("timeout")
	errLongLine    = errors.New("line too long")
)

// writeLine writes one line to the process's stdin within timeout.
func (p *process) writeLine(line []byte, timeout time.Duration) error {
	_ = p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	_, err := p.stdin.Write(append(line, '\n'))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return errTimeout
	}
	return err
}

// readLine reads one line from the process's stdout within timeout,
// without its newline. It returns io.EOF when the process closed its
// stdout (it exited), errTimeout past the deadline.
func (p *process) readLine(timeout time.Duration) ([]byte, error) {
	_ = p.stdout.SetReadDeadline(time.Now().Add(timeout))
	var line []byte
	for {
		chunk, err := p.out.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, errLongLine
		}
		switch {
		case err == nil:
			return bytes.TrimRight(line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, errTimeout
		case errors.Is(err, io.EOF) && len(line) > 0:
			return bytes.TrimRight(line, "\r\n"), nil // a last line without newline
		default:
			return nil, err
		}
	}
}

// exitStatus waits a short, bounded while for a process that closed its
// stdout to exit, and says how it ended ("" if it is still running).
func (p *process) exitStatus() string {
	if p.exited {
		return p.status
	}
	for range 100 {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(p.proc.Pid, &ws, syscall.WNOHANG, nil)
		if err != nil {
			return ""
		}
		if pid == p.proc.Pid {
			p.exited = true
			switch {
			case ws.Exited():
				p.status = fmt.Sprintf("exit status %d", ws.ExitStatus())
			case ws.Signaled():
				p.status = "killed by " + ws.Signal().String()
			default:
				p.status = "ended"
			}
			return p.status
		}
		time.Sleep(2 * time.Millisecond)
	}
	return ""
}

// kill kills the process's whole group, reaps the process and closes its
// pipes. It returns what the process wrote on stderr (at most maxLog
// bytes). Calling it twice is harmless.
func (p *process) kill() []byte {
	if p.proc == nil {
		return nil
	}
	pgid := p.proc.Pid
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if !p.exited {
		_, _ = p.proc.Wait()
		p.exited = true
	} else {
		_ = p.proc.Release()
	}
	groups.Lock()
	delete(groups.live, pgid)
	groups.Unlock()
	p.stdin.Close()
	p.stdout.Close()
	var log []byte
	if _, err := p.stderr.Seek(0, io.SeekStart); err == nil {
		log, _ = io.ReadAll(io.LimitReader(p.stderr, maxLog))
	}
	p.stderr.Close()
	p.proc = nil
	return log
}
