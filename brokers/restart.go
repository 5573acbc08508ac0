package brokers

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"time"

	"github.com/oncesim/once/sim"
)

// restartingWorker is the one worker process of a driver's run (the
// RabbitMQ consumer, the NATS subscriber) kept going through its crashes:
// the driver follows the current process's steps until the run is over;
// where the decider crashed it, the run records the restart, waits the
// scenario's restart delay and starts another, as the simulator restarts
// a crashed node.
type restartingWorker struct {
	e       *env
	node    sim.NodeID
	name    string        // "consumer", "subscriber": for the log lines
	restart time.Duration // the scenario's restart delay, on the server's clock
	start   func() (*worker, error)

	mu  sync.Mutex
	cur *worker
}

// newRestartingWorker starts the first process.
func newRestartingWorker(e *env, node sim.NodeID, name string, restart time.Duration, start func() (*worker, error)) (*restartingWorker, error) {
	w, err := start()
	if err != nil {
		return nil, err
	}
	return &restartingWorker{e: e, node: node, name: name, restart: restart, start: start, cur: w}, nil
}

// current is the process running now.
func (s *restartingWorker) current() *worker {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// run calls follow on the current process until it says the run is over
// (crashed false): then true. follow returning crashed means the decider
// killed the process: it is restarted and followed again. An error, or
// ctx ended, stops it (false).
func (s *restartingWorker) run(ctx context.Context, follow func(*worker) (crashed bool, err error)) (bool, error) {
	for {
		crashed, err := follow(s.current())
		if err != nil || ctx.Err() != nil {
			return false, err
		}
		if !crashed {
			return true, nil
		}
		s.e.dec.Record(sim.Event{Kind: sim.EvRestart, Node: s.node, Peer: sim.NoNode})
		select {
		case <-time.After(s.restart):
		case <-ctx.Done():
			return false, nil
		}
		nw, err := s.start()
		if err != nil {
			return false, err
		}
		s.mu.Lock()
		s.cur = nw
		s.mu.Unlock()
		s.e.say("%s restarted (pid %d)", s.name, nw.proc.pid())
	}
}

// stop ends the current process: SIGCONT first (a stopped process cannot
// handle its SIGTERM), then SIGTERM.
func (s *restartingWorker) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		_ = s.cur.signal(syscall.SIGCONT)
		s.cur.proc.stop(syscall.SIGTERM)
	}
}

// nextStep waits for w's next step. Every 20 ms without one it asks over
// whether the run is done (then ok is false). pubErr, when not nil, is
// the publisher's end: an error stops the wait, nil is taken and the
// wait goes on. A process that exits on its own is an error naming it as
// what; ctx ended is the end (ok false).
func nextStep(ctx context.Context, w *worker, what string, tick <-chan time.Time, pubErr *<-chan error, over func() bool) (s step, ok bool, err error) {
	var pub <-chan error
	if pubErr != nil {
		pub = *pubErr
	}
	for {
		select {
		case s = <-w.steps:
			return s, true, nil
		case err := <-pub:
			if err != nil {
				return s, false, err
			}
			pub, *pubErr = nil, nil
		case <-tick:
			if over() {
				return s, false, nil
			}
		case <-w.proc.waited:
			if ctx.Err() != nil {
				return s, false, nil
			}
			return s, false, fmt.Errorf("brokers: the %s (pid %d) exited: %v", what, w.proc.pid(), w.proc.err)
		case <-ctx.Done():
			return s, false, nil
		}
	}
}
