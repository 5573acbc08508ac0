package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// restartTimeout bounds one run of the user's --restart-cmd.
const restartTimeout = 30 * time.Second

// healthTimeout bounds the wait, after --restart-cmd returned, for the
// user's service to answer HTTP again.
const healthTimeout = 10 * time.Second

// maxOutput is how much of --restart-cmd's output a log keeps.
const maxOutput = 4 << 10

// crashPoints are the crash points of a service once cannot ask from
// inside — the user's own, under --target with --restart-cmd. The fault
// layer asks them at what it sees of the service: the simulator's
// payment-service crashes after-lock (key written, provider not called)
// when its charge reaches the fault layer, after-charge when the
// provider's answer reaches the service, after-store (response stored,
// not sent) when its answer to the client reaches the fault layer.
type crashPoints interface {
	// call is told the service sends m (service → provider); false: it
	// crashed before (or is down), the call is not sent. gen names the
	// service process that sent it.
	call(m sim.Message) (gen int, ok bool)
	// result is told the answer back (HTTP status code) reached the
	// service process gen; false: it crashed at it, or that process is
	// dead.
	result(back sim.Message, code, gen int) bool
	// answer is told the service answered the client's m; false: it
	// crashed before sending it, or is down.
	answer(m sim.Message) bool
}

// restartHost is the user's own service, crashed by running the user's
// --restart-cmd (which kills it and starts it again) where the decider
// draws a crash. The command runs at once — the process must die at the
// crash point, not later — and the run's clock stands still while it runs,
// as the simulator's restart takes no time; the service is down, to the
// fault layer, until the scenario's restart delay after the crash. A call
// the starting service makes (its recovery: lookups and charges by key)
// is held until that restart time, so it happens when the simulator's
// recovery does, with the clock running while it is away; the recovery's
// crash points are asked as the simulator asks them, and a crash there
// runs the command again once it has returned.
type restartHost struct {
	url, cmd string
	dec      *Decider
	topo     *sim.Topology
	node     sim.NodeID
	downtime time.Duration // the scenario's restart delay, in real time
	log      io.Writer
	done     <-chan struct{}
	fail     func() // cuts the run: the service could not be restarted
	// The simulator's crash points of this service: after-lock only when
	// it writes the key before the charge, after-store only when it
	// stores a response (idempotent semantics).
	lock, store                             bool
	afterLock, afterCharge, after           sim.PointID
	pay, charge, chargeResult, lookupResult sim.MsgKind

	mu         sync.Mutex
	env        []string // the command's environment
	down       bool     // crashed, not yet back (the restart delay included)
	recovering bool     // the command runs: the service's calls are its recovery's
	upAt       time.Duration
	restarted  bool // the restart of the command under way is recorded
	// recrashed: the starting service crashed in its recovery, at
	// recrashAt: its calls go nowhere, the command runs again.
	recrashed bool
	recrashAt time.Duration
	started   chan struct{} // closed when the command under way returned
	gen       int           // the service process: one more per restart
	charged   map[reqID]bool
	restarts  int
	pending   int // crashes whose restart is under way
	stopped   bool
	err       error
	running   sync.WaitGroup
}

// newRestartHost returns the user's service at url, restarted by cmd,
// with the crash points of the scenario's payment-service.
func newRestartHost(url, cmd string, cfg *sim.Config, p *parts, tick time.Duration, dec *Decider, log io.Writer,
	done <-chan struct{}, fail func()) (*restartHost, error) {
	svc, ok := cfg.Nodes[p.service].(*payments.PaymentService)
	if !ok {
		return nil, fmt.Errorf("%w: --restart-cmd: once asks the crash points of the payment-service only; this scenario's service is another", ErrNotLive)
	}
	h := &restartHost{url: url, cmd: cmd, dec: dec, topo: cfg.Topology, node: p.service, log: log, done: done, fail: fail,
		downtime: time.Duration(cfg.Topology.Nodes[p.service].RestartAfter) * tick,
		pay:      p.pay, charge: p.charge, chargeResult: p.chargeResult, lookupResult: p.lookupResult, charged: map[reqID]bool{}}
	idem := roles.Idempotent(cfg.Semantics)
	h.lock, h.store = idem && !svc.MarkAfter, idem
	var ok1, ok2, ok3 bool
	h.afterLock, ok1 = cfg.Topology.PointByName("after-lock")
	h.afterCharge, ok2 = cfg.Topology.PointByName("after-charge")
	h.after, ok3 = cfg.Topology.PointByName("after-store")
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("live: the topology has no after-lock, after-charge or after-store crash point")
	}
	SweepTemp(os.TempDir()) // the logs of runs killed while their command ran
	return h, nil
}

// setProvider gives the command ONCE_PROVIDER_URL and ONCE_TARGET.
func (h *restartHost) setProvider(provider string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.env = append(os.Environ(), ProviderEnv+"="+provider, "ONCE_TARGET="+h.url)
}

func (h *restartHost) start() error { return nil }

// stop waits for a restart under way (bounded by the command's timeout)
// and lets none begin.
func (h *restartHost) stop() {
	h.mu.Lock()
	h.stopped = true
	h.mu.Unlock()
	h.running.Wait()
}

// Target is the service's URL, "" while it is down. Past the restart
// time, while the command still runs (the service recovers before it
// listens), a request waits for it: in the simulator the restarted service
// takes requests while its recovery's calls are out.
func (h *restartHost) Target() string {
	for {
		h.mu.Lock()
		down, waiting, started := h.down, h.restarted && h.recovering && !h.recrashed && !h.stopped, h.started
		h.mu.Unlock()
		switch {
		case !down:
			return h.url
		case !waiting:
			return ""
		}
		select {
		case <-started:
		case <-h.done:
			return ""
		}
	}
}

// Settled reports whether no restart is under way.
func (h *restartHost) Settled() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.pending == 0
}

// Err is why the service could not be restarted, if it could not.
func (h *restartHost) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// Recovering reports whether the command runs: a call the service makes
// now is its recovery's (attempt 0, as the simulator's restart sends).
func (h *restartHost) Recovering() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.recovering
}

// point decides a crash at point while the service handles m and, if the
// decider draws one, restarts the service (before it returns: the process
// is killed before the fault layer lets its handler go on). The caller
// holds nothing.
func (h *restartHost) point(point sim.PointID, m sim.Message) bool {
	h.mu.Lock()
	if h.down || h.stopped {
		h.mu.Unlock()
		return true // dead already: the caller drops what it holds
	}
	if !h.dec.Crash(h.node, point, m) {
		h.mu.Unlock()
		return false
	}
	at := h.dec.Elapsed()
	h.down, h.gen, h.pending, h.charged = true, h.gen+1, h.pending+1, map[reqID]bool{}
	h.restarts++
	n := h.restarts
	h.running.Add(1)
	h.mu.Unlock()
	defer h.running.Done()
	h.restartAt(at, n, point, m)
	return true
}

func (h *restartHost) call(m sim.Message) (int, bool) {
	h.mu.Lock()
	gen, recovering, down, recrashed, upAt := h.gen, h.recovering, h.down, h.recrashed, h.upAt
	h.mu.Unlock()
	switch {
	case recovering && recrashed:
		return gen, false
	case recovering: // held until the simulator's restart, the clock running
		if !h.dec.SleepUntil(upAt, h.done, nil) {
			return gen, false
		}
		h.markRestarted()
		return gen, true
	case down:
		return gen, false // sent by a process the fault layer already counts dead
	case m.Kind == h.charge && h.lock && m.Attempt > 0:
		pay := sim.Message{From: m.To, To: m.From, Kind: h.pay, Op: m.Op, Attempt: m.Attempt}
		if h.point(h.afterLock, pay) {
			return gen, false
		}
	}
	return gen, true
}

func (h *restartHost) result(back sim.Message, code, gen int) bool {
	h.mu.Lock()
	stale, recovering := gen != h.gen || (h.recovering && h.recrashed), h.recovering
	h.mu.Unlock()
	if stale { // its caller was killed: the answer finds no one
		h.dec.Record(sim.Event{Kind: sim.EvDrop, Node: back.From, Peer: back.To, Reason: sim.DropDown, Msg: back})
		return false
	}
	if recovering {
		return h.recoveryPoints(back, code)
	}
	if back.Kind != h.chargeResult || back.Attempt == 0 {
		return true // a recovery's answer after the command returned: no crash point
	}
	if h.point(h.afterCharge, back) {
		return false
	}
	if h.store {
		h.mu.Lock()
		if gen == h.gen {
			h.charged[reqID{int32(back.Op), back.Attempt}] = true
		}
		h.mu.Unlock()
	}
	return true
}

func (h *restartHost) answer(m sim.Message) bool {
	id := reqID{int32(m.Op), m.Attempt}
	h.mu.Lock()
	down, charged := h.down, h.charged[id]
	delete(h.charged, id)
	h.mu.Unlock()
	if down {
		return false
	}
	if !charged {
		return true
	}
	res := sim.Message{From: sim.NoNode, To: h.node, Kind: h.chargeResult, Op: m.Op, Attempt: m.Attempt}
	return !h.point(h.after, res)
}

// recoveryPoints asks the crash points of the simulator's recovery when
// the answer back reaches the starting service: a charge made again, or a
// lookup that found the charge, is stored — after-charge, then
// after-store. A crash marks the process dead (the command runs again once
// it has returned); at after-charge the answer is not delivered.
func (h *restartHost) recoveryPoints(back sim.Message, code int) bool {
	if !h.store || !(back.Kind == h.chargeResult || (back.Kind == h.lookupResult && code == http.StatusOK)) {
		return true
	}
	for i, point := range []sim.PointID{h.afterCharge, h.after} {
		h.mu.Lock()
		if h.recrashed || h.stopped {
			h.mu.Unlock()
			return false
		}
		if h.dec.Crash(h.node, point, back) {
			h.recrashed, h.recrashAt = true, h.dec.Elapsed()
			h.mu.Unlock()
			return i > 0 // after-store: the answer was taken, the response stored
		}
		h.mu.Unlock()
	}
	return true
}

// markRestarted records the restart of the command under way, once.
func (h *restartHost) markRestarted() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.restarted {
		return
	}
	h.restarted = true
	h.dec.Record(sim.Event{Kind: sim.EvRestart, Node: h.node, Peer: sim.NoNode})
}

// restartAt runs the command for the n-th crash, decided at the run's
// virtual time at, waits for the service to answer, then for the restart
// delay; a command that fails (or a service that does not answer) cuts
// the run with one line.
func (h *restartHost) restartAt(at time.Duration, n int, point sim.PointID, m sim.Message) {
	defer func() {
		h.mu.Lock()
		h.pending--
		h.mu.Unlock()
	}()
	where := fmt.Sprintf("%s (op %d, attempt %d)", h.topo.PointName(point), m.Op, m.Attempt)
	for {
		if n > maxRestarts {
			h.failWith(errRestartTooMany(maxRestarts))
			return
		}
		h.dec.clk.starts(1) // the simulator's restart takes no time
		h.mu.Lock()
		h.recovering, h.restarted, h.recrashed, h.upAt = true, false, false, at+h.downtime
		h.started = make(chan struct{})
		env := h.env
		h.mu.Unlock()
		began := time.Now()
		out, err := runRestart(h.cmd, env, restartTimeout, h.done)
		took := time.Since(began)
		if err == nil {
			err = waitAnswers(h.url, healthTimeout, h.done)
		}
		fmt.Fprintf(h.log, "live: crash %d of your service at %s: --restart-cmd ran %s\n", n, where, took.Round(time.Millisecond))
		h.mu.Lock()
		h.recovering = false
		again, at2 := h.recrashed, h.recrashAt
		if again {
			h.gen++
			h.restarts++
			n = h.restarts
		} else if h.restarted && err == nil {
			h.down = false // requests waited for it
		}
		close(h.started)
		h.mu.Unlock()
		h.dec.clk.starts(-1)
		for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
			if l != "" {
				fmt.Fprintf(h.log, "live:   | %s\n", printable(l))
			}
		}
		if errors.Is(err, errRestartCut) {
			return // the run is over: nothing to restart for
		}
		if err != nil {
			h.failWith(err)
			return
		}
		if again { // crashed in its recovery: killed and started again now
			at, where = at2, "its recovery"
			continue
		}
		if !h.dec.SleepUntil(at+h.downtime, h.done, nil) {
			return
		}
		h.markRestarted()
		h.mu.Lock()
		h.down = false
		h.mu.Unlock()
		return
	}
}

func (h *restartHost) failWith(err error) {
	h.mu.Lock()
	if h.err == nil {
		h.err = err
	}
	h.mu.Unlock()
	h.fail()
}

// maxLog caps the --restart-cmd log on disk: past it the log is cut, its
// last maxOutput bytes kept in memory for the error message. The log is
// checked every logEvery while the command runs, so a command writing
// fast can pass the cap by what it writes in that time, never more.
const (
	maxLog   = 1 << 20
	logEvery = 5 * time.Millisecond
)

// restartLogPrefix starts a --restart-cmd log's name, before its owner's
// pid (once-restart-PID-….log): a log left by a once that died while its
// command ran is swept by a later run (SweepTemp).
const restartLogPrefix = "once-restart-"

// restartLog is the output of one run of --restart-cmd: a temporary file
// opened for appending, so that the command's writes go to its end
// wherever that is, cut to empty (its tail kept) whenever it passes max.
type restartLog struct {
	f    *os.File
	max  int64
	tail []byte // the last maxOutput bytes of what was cut
}

func newRestartLog(dir string, max int64) (*restartLog, error) {
	f, err := os.CreateTemp(dir, fmt.Sprintf("%s%d-*.log", restartLogPrefix, os.Getpid()))
	if err != nil {
		return nil, err
	}
	name := f.Name()
	f.Close()
	if f, err = os.OpenFile(name, os.O_RDWR|os.O_APPEND, 0o600); err != nil {
		os.Remove(name)
		return nil, err
	}
	return &restartLog{f: f, max: max}, nil
}

// trim cuts the log when it is past max, keeping its last maxOutput bytes.
func (l *restartLog) trim() {
	if fi, err := l.f.Stat(); err == nil && fi.Size() > l.max {
		l.tail = l.last()
		l.f.Truncate(0)
	}
}

// last is the output's last maxOutput bytes: the tail cut before, then
// what the file holds now.
func (l *restartLog) last() []byte {
	fi, err := l.f.Stat()
	if err != nil {
		return l.tail
	}
	from := max(0, fi.Size()-maxOutput)
	buf := make([]byte, fi.Size()-from)
	n, _ := l.f.ReadAt(buf, from)
	out := append(append([]byte(nil), l.tail...), buf[:n]...)
	if len(out) > maxOutput {
		out = out[len(out)-maxOutput:]
	}
	return out
}

// remove closes and removes the log.
func (l *restartLog) remove() {
	l.f.Close()
	os.Remove(l.f.Name())
}

// errRestartCut: the run ended while --restart-cmd ran; the command was
// killed with its process group.
var errRestartCut = errors.New("live: the run ended while --restart-cmd ran")

// runRestart runs cmd with sh -c in a process group of its own (Ctrl-C of
// once does not reach it; a command past timeout, or still running when
// done closes, is killed with its whole group), its output into a bounded
// temporary log (restartLog) — not a pipe, which a service the command
// starts in the background would hold open — and returns the output's
// last maxOutput bytes. The log is removed on every path. A command that
// fails, or does not return within timeout, is an error of one line.
func runRestart(cmd string, env []string, timeout time.Duration, done <-chan struct{}) ([]byte, error) {
	log, err := newRestartLog("", maxLog)
	if err != nil {
		return nil, fmt.Errorf("live: --restart-cmd output file: %w", err)
	}
	defer log.remove()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cut := false
	c := exec.CommandContext(ctx, "sh", "-c", cmd)
	c.Env, c.Stdout, c.Stderr = env, log.f, log.f
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("live: --restart-cmd %q: %v", cmd, err)
	}
	waited := make(chan error, 1)
	go func() { waited <- c.Wait() }()
	tick := time.NewTicker(logEvery)
	defer tick.Stop()
	var runErr error
wait:
	for {
		select {
		case runErr = <-waited:
			break wait
		case <-tick.C:
			log.trim()
		case <-done:
			cut = true
			cancel()
			done = nil
		}
	}
	log.trim()
	out := log.last()
	switch {
	case cut:
		return out, errRestartCut
	case ctx.Err() != nil:
		return out, errRestartHung(cmd, timeout)
	case runErr != nil:
		return out, fmt.Errorf("live: --restart-cmd %q: %v%s", cmd, runErr, lastLine(out))
	}
	return out, nil
}

// printable is l with its control characters escaped (\x00, \x1b…):
// a command's output reaches a terminal.
func printable(l string) string {
	if strings.IndexFunc(l, func(r rune) bool { return r != '\t' && !unicode.IsPrint(r) }) < 0 {
		return l
	}
	q := strconv.QuoteToGraphic(l)
	return q[1 : len(q)-1]
}

// lastLine is the output's last non-empty line, quoted after a colon, or "".
func lastLine(out []byte) string {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	if l := strings.TrimSpace(string(lines[len(lines)-1])); l != "" {
		return ": " + strconv.Quote(l)
	}
	return ""
}

// waitAnswers polls url until it answers HTTP at all (any status: a GET
// of the base URL), within timeout; an error of one line if it does not.
func waitAnswers(url string, timeout time.Duration, done <-chan struct{}) error {
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}, Timeout: time.Second, CheckRedirect: noRedirect}
	defer client.CloseIdleConnections()
	deadline := time.Now().Add(timeout)
	for {
		resp, err := client.Get(url + "/")
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return errRestartNoAnswer(MaskURL(url), timeout)
		}
		select {
		case <-done:
			return nil
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// keyOp finds the operation in a key the client made (…pay-op-N or
// …pay-op-N-attempt-M): a lookup by key carries no amount.
var keyOp = regexp.MustCompile(`pay-op-(\d+)(?:-attempt-\d+)?$`)

// inferCall names a call of the user's service: a charge by its amount, a
// lookup by its key; made while the restart command runs, it is the
// recovery's (attempt 0) — recovering may be nil. The attempt is the
// first of the operation that runs service code now (act.runningAttempt),
// else the latest the client sent.
func inferCall(dec *Decider, ops int, recovering func() bool, act *activity) func(r *http.Request, body []byte) (int32, int32, bool) {
	charge := inferCharge(dec, ops)
	return func(r *http.Request, body []byte) (int32, int32, bool) {
		op, attempt, ok := inferCallOf(dec, ops, charge, r, body, recovering)
		if ok && attempt > 0 {
			// The attempt inside the service that runs code now, rather
			// than the latest sent: that one may still be on its way
			// (slow, late), and the call is made by one that arrived.
			if in, found := act.runningAttempt(op); found {
				attempt = in
			}
		}
		return op, attempt, ok
	}
}

// inferCallOf names one call as inferCall does, the attempt the latest
// the client sent.
func inferCallOf(dec *Decider, ops int, charge func(*http.Request, []byte) (int32, int32, bool), r *http.Request, body []byte, recovering func() bool) (int32, int32, bool) {
	var op, attempt int32
	ok := false
	if r.URL.Path == PathLookup {
		if sub := keyOp.FindStringSubmatch(r.URL.Query().Get("key")); sub != nil {
			if n, err := strconv.Atoi(sub[1]); err == nil && n >= 1 && n <= ops {
				op, attempt, ok = int32(n), dec.LastAttempt(int32(n)), true
			}
		}
	} else {
		op, attempt, ok = charge(r, body)
	}
	if ok && recovering != nil && recovering() {
		attempt = 0
	}
	return op, attempt, ok
}
