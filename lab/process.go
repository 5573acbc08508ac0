package lab

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// maxLine bounds one line a node writes; a longer one breaks the protocol.
const maxLine = 1 << 20

// maxLog is how much of an incarnation's stderr is kept: the last maxLog
// bytes, shown with --logs or when the node fails.
const maxLog = 64 << 10

// maxStderr bounds the stderr one incarnation may write: past it the node
// fails (a log that floods is a loop, and reading it costs the run).
const maxStderr = 64 << 20

// MarkerEnv is the environment variable every lab process is started
// with: "<pid of once>.<spawn number>". Its descendants inherit it, so the
// harness finds them in /proc even after they left the process group
// (setsid) and their parent died.
const MarkerEnv = "ONCE_LAB_NODE"

// process is one incarnation of an external node: its own process group,
// stdin and stdout pipes, stderr drained into a bounded ring (a pipe
// read by a goroutine, so a chatty process never blocks and never fills
// a disk).
type process struct {
	proc   *os.Process
	marker string
	stdin  *os.File
	stdout *os.File
	out    *bufio.Reader
	stderr *ring
	exited bool
	up     bool   // it has answered a line: its start-up is over
	status string // how it ended, once known
	// canReset: its last init's done declared the reset capability, so
	// it may be reset and handed to the next run instead of killed.
	canReset bool
}

// groups holds the process groups alive in this program, so an interrupt
// can kill them all (KillAll) from the signal handler's goroutine.
var groups = struct {
	sync.Mutex
	live        map[int]string // pgid → marker
	interrupted bool
}{live: map[int]string{}}

var spawned atomic.Int64

// KillAll kills every process group the harness started, and every
// descendant of them it can find, and marks the program interrupted: the
// run stops at its next read with "interrupted". It is safe to call from
// a signal handler's goroutine.
func KillAll() {
	groups.Lock()
	groups.interrupted = true
	live := make(map[int]string, len(groups.live))
	for pgid, m := range groups.live {
		live[pgid] = m
	}
	groups.Unlock()
	for pgid, m := range live {
		for _, d := range descendants(pgid) {
			_ = syscall.Kill(d, syscall.SIGKILL)
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		sweep(m)
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

// spawn starts argv in a new process group, marked for the sweep.
func spawn(argv []string, dir string) (*process, error) {
	becomeSubreaper()
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	files = append(files, inR, inW)
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	files = append(files, outR, outW)
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	files = append(files, errR, errW)
	marker := strconv.Itoa(os.Getpid()) + "." + strconv.FormatInt(spawned.Add(1), 10)
	groups.Lock()
	if groups.interrupted {
		groups.Unlock()
		closeAll()
		return nil, errInterrupted
	}
	p, err := os.StartProcess(argv[0], argv, &os.ProcAttr{
		Dir:   dir,
		Env:   append(os.Environ(), MarkerEnv+"="+marker),
		Files: []*os.File{inR, outW, errW},
		Sys:   procAttr(),
	})
	if err == nil {
		groups.live[p.Pid] = marker
	}
	groups.Unlock()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	return &process{proc: p, marker: marker, stdin: inW, stdout: outR, out: bufio.NewReaderSize(outR, 64<<10),
		stderr: drain(errR)}, nil
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
			p.up = true
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

// kill ends the process, its whole group and every descendant that left
// the group (setsid, a double fork), reaps what it can and closes the
// pipes. It returns the last maxLog bytes the process wrote on stderr.
// Calling it twice is harmless.
func (p *process) kill() []byte {
	if p.proc == nil {
		return nil
	}
	pgid := p.proc.Pid
	// The descendants first, while the tree still hangs together; what
	// escapes (a child forked meanwhile) is reparented to this process,
	// the subreaper, and swept below.
	for _, d := range descendants(pgid) {
		_ = syscall.Kill(d, syscall.SIGKILL)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if !p.exited {
		_, _ = p.proc.Wait()
		p.exited = true
	} else {
		_ = p.proc.Release()
	}
	sweep(p.marker)
	groups.Lock()
	delete(groups.live, pgid)
	groups.Unlock()
	p.stdin.Close()
	p.stdout.Close()
	log := p.stderr.close()
	p.proc = nil
	return log
}

// stderrBytes is how much the process has written on stderr so far.
func (p *process) stderrBytes() int64 { return p.stderr.total.Load() }

// ring keeps the last maxLog bytes of a stream and counts all of them.
type ring struct {
	f     *os.File
	done  chan struct{}
	total atomic.Int64
	mu    sync.Mutex
	buf   []byte // at most maxLog bytes, the newest last
}

// drain reads f to its end in a goroutine of its own, keeping the tail.
func drain(f *os.File) *ring {
	r := &ring{f: f, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		chunk := make([]byte, 32<<10)
		for {
			n, err := f.Read(chunk)
			if n > 0 {
				r.total.Add(int64(n))
				r.mu.Lock()
				r.buf = append(r.buf, chunk[:n]...)
				if len(r.buf) > maxLog {
					r.buf = append(r.buf[:0], r.buf[len(r.buf)-maxLog:]...)
				}
				r.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return r
}

// take returns the tail kept so far and starts the count afresh: a
// process reset for another run begins a new incarnation's log.
func (r *ring) take() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]byte(nil), r.buf...)
	r.buf = r.buf[:0]
	r.total.Store(0)
	return out
}

// close waits a bounded while for the writers' end (they are dead), then
// closes the pipe and returns the tail.
func (r *ring) close() []byte {
	select {
	case <-r.done:
	case <-time.After(200 * time.Millisecond):
	}
	r.f.Close()
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.buf...)
}
