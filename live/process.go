package live

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/oncesim/once/sim"
)

// maxRestarts bounds how often one run restarts the service.
const maxRestarts = 200

// startTimeout bounds how long a starting service may take to recover and
// listen.
const startTimeout = 30 * time.Second

// ServeCommand is the hidden subcommand of the once binary that runs the
// payment service process.
const ServeCommand = "live-serve"

// errDiedStarting: the service process died before it listened — a crash
// while it recovered its keys; it is restarted like any crash.
var errDiedStarting = errors.New("live: the service exited before listening")

// supervisor runs the payment service as an OS process of its own and
// restarts it after it dies (a crash kills it: memory is lost, the
// database is kept), after the scenario's restart delay. The service's
// standard input is a pipe the supervisor holds: when the run ends in any
// way, the pipe closes and the service exits.
type supervisor struct {
	binary  string
	config  ServiceConfig
	node    sim.NodeID
	dec     *Decider
	restart time.Duration // downtime after a crash, on the run's virtual clock
	done    <-chan struct{}
	stderr  io.Writer
	log     io.Writer // one line per process started

	mu       sync.Mutex
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	addr     string // base URL while up, "" while down
	starting bool   // down and about to restart
	restarts int
	stopped  bool
	exited   chan struct{} // closed when the current process has been reaped
	watchers sync.WaitGroup
	err      error // why the service could not be (re)started
	// crashAt is the run's virtual time of the last crash the fault layer
	// decided (crashed: not yet restarted from): the restart comes
	// restart after it, as in the simulator, however long the process
	// took to die.
	crashAt time.Duration
	crashed bool
}

// crashing records that the fault layer killed the service now.
//
// From here until the watcher waits for the restart time, the restart is
// a party at work on the run's clock: no jump may pass the moment the
// service comes back while the process is still dying.
func (s *supervisor) crashing() {
	at := s.dec.Elapsed()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.crashed {
		s.dec.clk.enter() // the watcher takes it over (watch)
	}
	s.crashAt, s.crashed = at, true
}

// Target returns the service's base URL, "" while it is down.
func (s *supervisor) Target() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Settled reports whether the service is up (or failed for good) and no
// restart is pending.
func (s *supervisor) Settled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.starting
}

// Err reports why the service could not be started, if it could not.
func (s *supervisor) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// start launches one service process and waits for its "listening" line.
func (s *supervisor) start() error {
	cfg, err := json.Marshal(s.config)
	if err != nil {
		return fmt.Errorf("live: service config: %w", err)
	}
	cmd := exec.Command(s.binary, ServeCommand, string(cfg))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("live: service stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("live: service stdout: %w", err)
	}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("live: start service %s: %w", s.binary, err)
	}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		io.Copy(io.Discard, stdout)
	}()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	var addr string
	select {
	case l, ok := <-line:
		addr, _ = strings.CutPrefix(l, "listening ")
		if !ok || addr == l {
			<-exited
			if s.isStopped() {
				return nil
			}
			return fmt.Errorf("%w (%s)", errDiedStarting, cmd.ProcessState)
		}
	case <-timer.C:
		cmd.Process.Kill()
		<-exited
		return errServiceNoListen(startTimeout)
	case <-s.done:
		stdin.Close()
		cmd.Process.Kill()
		<-exited
		return nil
	}
	fmt.Fprintf(s.log, "live: service pid %d listening on http://%s\n", cmd.Process.Pid, addr)
	s.mu.Lock()
	s.cmd, s.stdin, s.exited, s.addr, s.starting = cmd, stdin, exited, "http://"+addr, false
	stopped := s.stopped
	s.mu.Unlock()
	if stopped {
		s.kill()
		return nil
	}
	s.watchers.Add(1)
	go s.watch(exited)
	return nil
}

// watch restarts the service when its process dies unasked.
func (s *supervisor) watch(exited chan struct{}) {
	defer s.watchers.Done()
	<-exited
	s.mu.Lock()
	if !s.crashed { // died unasked: no crash counted it at work
		s.dec.clk.enter()
	}
	defer s.dec.clk.exit()
	if s.stopped {
		s.addr = ""
		s.mu.Unlock()
		return
	}
	s.addr, s.starting = "", true
	s.mu.Unlock()
	for again := false; ; again = true {
		s.mu.Lock()
		s.restarts++
		tooMany := s.restarts > maxRestarts
		s.mu.Unlock()
		s.mu.Lock()
		at := s.dec.Elapsed()
		if s.crashed {
			at = s.crashAt
			if again { // a crash in its recovery counted a party of its own: this one goes on
				s.dec.clk.exit()
			}
		}
		s.crashed = false
		s.mu.Unlock()
		if tooMany || !s.pause(at+s.restart) {
			s.mu.Lock()
			if tooMany {
				s.err = errServiceDiedTooOften(maxRestarts)
			}
			s.starting = false
			s.mu.Unlock()
			return
		}
		s.dec.Record(sim.Event{Kind: sim.EvRestart, Node: s.node, Peer: sim.NoNode})
		// The simulator's restart takes no time: the clock stands still
		// while the process starts (its recovery's calls excepted).
		s.dec.clk.starts(1)
		// Idle while it starts: the starting process holds the clock, and
		// its recovery's calls are parties of their own that may sleep.
		s.dec.clk.exit()
		err := s.start()
		s.dec.clk.enter()
		s.dec.clk.starts(-1)
		if errors.Is(err, errDiedStarting) {
			continue // crashed again while recovering: down once more
		}
		if err != nil {
			s.mu.Lock()
			s.err, s.starting = err, false
			s.mu.Unlock()
		}
		return
	}
}

// pause waits until the run's virtual time at; false when the run ends
// first.
func (s *supervisor) pause(at time.Duration) bool {
	return s.dec.SleepUntil(at, s.done, nil)
}

func (s *supervisor) isStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// stop ends the service for good and waits until its process is reaped
// and no restart is under way. Close done before calling it.
func (s *supervisor) stop() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.kill()
	s.watchers.Wait()
}

func (s *supervisor) kill() {
	s.mu.Lock()
	cmd, stdin, exited := s.cmd, s.stdin, s.exited
	s.addr = ""
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	stdin.Close() // a polite stop: the service shuts down when its input closes
	select {
	case <-exited:
		return
	case <-time.After(2 * time.Second):
	}
	cmd.Process.Kill()
	<-exited
}

// freeze stops the service process (SIGSTOP) for d, then lets it go on
// (SIGCONT): the simulator's pause, memory and connections kept. The
// process is continued on every path, the run's end included, so a
// stopped process is never left behind.
func (s *supervisor) freeze(d time.Duration, done <-chan struct{}) {
	s.mu.Lock()
	cmd := s.cmd
	s.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return
	}
	if cmd.Process.Signal(syscall.SIGSTOP) != nil {
		return
	}
	defer cmd.Process.Signal(syscall.SIGCONT)
	// Its handlers hold the clock, but do nothing: the clock runs.
	s.dec.clk.freeze(1)
	defer s.dec.clk.freeze(-1)
	s.dec.SleepUntil(s.dec.Elapsed()+d, done, nil)
}
