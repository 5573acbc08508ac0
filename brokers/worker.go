package brokers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// WorkerCommand is the hidden once subcommand that runs one worker or
// consumer process of a broker run: once BROKER-WORKER CONFIG-JSON.
const WorkerCommand = "broker-worker"

// workerConfig is what a worker process is told, as JSON on its command
// line.
type workerConfig struct {
	Role      string // "redis-lock" | "redis-stream-consumer" | "rabbitmq-consumer" | "nats-subscriber"
	Node      string // its node's name in the scenario (worker-a, consumer)
	URL       string // the broker
	Ledger    string // the SQLite file of effects
	Ops       int
	Interval  int64  // ms between two jobs
	TTL       int64  // ms, the lock's expiry
	Retry     int64  // ms, a held lock's retry
	Fencing   bool   // redis-lock: the ledger's fencing; nats-subscriber: dedup by Nats-Msg-Id
	Semantics string // amo | alo | idem
	Variant   string // the consumer's dedup: memory | database
	Queue     string
	// Visibility is the scenario's visibility timeout in ms: a RabbitMQ
	// consumer whose delivery or ack the decider lost requeues the
	// delivery (Nack) after it, as the simulator's broker redelivers.
	Visibility int64
	// StoreRTT, TokensRTT, LedgerRTT are the scenario's round trips to the
	// lock store, the token counter and the ledger, in ms (scaled by
	// linkScale): waited before each call, so the worker with the shorter
	// links wins a tie as it does in the simulator.
	StoreRTT, TokensRTT, LedgerRTT int64
	// Block and MinIdle are a Redis stream consumer's XREADGROUP BLOCK
	// and XAUTOCLAIM min-idle-time, in ms.
	Block, MinIdle int64
}

// WorkerMain is a worker process: it reads its configuration, reports
// each step as a line on out ("VERB OP ATTEMPT ARGS…") and, at a crash
// point ("point …"), waits for "go OP ATTEMPT" on in — where the driver
// may stop it (SIGSTOP), or kill it, first.
func WorkerMain(config string, in io.Reader, out io.Writer) error {
	var cfg workerConfig
	if err := json.Unmarshal([]byte(config), &cfg); err != nil {
		return fmt.Errorf("%s: the configuration: %w", WorkerCommand, err)
	}
	w := &workerIO{out: out, waiting: map[string]chan string{}, start: make(chan struct{})}
	go w.read(in)
	ctx := context.Background()
	switch cfg.Role {
	case "redis-lock":
		return runLockWorker(ctx, &cfg, w)
	case "rabbitmq-consumer":
		return runConsumer(ctx, &cfg, w)
	case "nats-subscriber":
		return runSubscriber(ctx, &cfg, w)
	case "redis-stream-consumer":
		return runStreamConsumer(ctx, &cfg, w)
	}
	return fmt.Errorf("%s: unknown role %q", WorkerCommand, cfg.Role)
}

// workerIO is the worker's side of the line protocol.
type workerIO struct {
	mu      sync.Mutex
	out     io.Writer
	waiting map[string]chan string
	start   chan struct{}
	once    sync.Once
}

// say reports one step.
func (w *workerIO) say(verb string, op, attempt int, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	line := fmt.Sprintf("%s %d %d", verb, op, attempt)
	for _, a := range args {
		line += " " + fmt.Sprint(a)
	}
	fmt.Fprintln(w.out, line)
}

// point reports a crash point and waits for the driver's go.
func (w *workerIO) point(name string, op, attempt int) { w.ask("point", name, op, attempt) }

// ask reports a step the driver decides (verb name) and waits for its
// answer: "go", or "lose" (the decider lost the message).
func (w *workerIO) ask(verb, name string, op, attempt int) string {
	ch := make(chan string, 1)
	w.mu.Lock()
	w.waiting[fmt.Sprintf("%d %d", op, attempt)] = ch
	w.mu.Unlock()
	w.say(verb, op, attempt, name)
	return <-ch
}

// read takes the driver's lines: "start", "go OP ATTEMPT", "lose OP ATTEMPT". At end of
// file (the driver is gone) the worker exits.
func (w *workerIO) read(in io.Reader) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 1 && f[0] == "start":
			w.once.Do(func() { close(w.start) })
		case len(f) == 3 && (f[0] == "go" || f[0] == "lose"):
			w.mu.Lock()
			ch := w.waiting[f[1]+" "+f[2]]
			delete(w.waiting, f[1]+" "+f[2])
			w.mu.Unlock()
			if ch != nil {
				ch <- f[0]
			}
		}
	}
	os.Exit(3)
}

// step is one line a worker reported.
type step struct {
	verb        string
	op, attempt int
	args        []string
}

func parseStep(line string) (step, bool) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return step{}, false
	}
	op, err1 := strconv.Atoi(f[1])
	at, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		return step{}, false
	}
	return step{verb: f[0], op: op, attempt: at, args: f[3:]}, true
}

// arg is the step's i-th argument, "" when absent.
func (s step) arg(i int) string {
	if i < len(s.args) {
		return s.args[i]
	}
	return ""
}

// worker is the driver's side of one worker process.
type worker struct {
	node  string
	proc  *process
	steps chan step
	mu    sync.Mutex
}

// lineWriter calls fn with each complete line written to it.
type lineWriter struct {
	buf []byte
	fn  func(string)
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := strings.IndexByte(string(l.buf), '\n')
		if i < 0 {
			return len(p), nil
		}
		l.fn(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
}

// startWorker starts a worker process for cfg: argv is the command that
// runs WorkerMain (the once binary and WorkerCommand), env its extra
// environment; its steps arrive on the returned worker's channel, its
// error output on stderr.
func startWorker(argv, env []string, cfg *workerConfig, stderr io.Writer) (*worker, error) {
	js, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("brokers: %w", err)
	}
	cmd := exec.Command(argv[0], append(argv[1:], string(js))...)
	cmd.Env = append(os.Environ(), env...)
	w := &worker{node: cfg.Node, steps: make(chan step, 1024)}
	out := &lineWriter{fn: func(line string) {
		if s, ok := parseStep(line); ok {
			w.steps <- s
		}
	}}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Stdout, cmd.Stderr = out, stderr
	p := &process{name: cfg.Node, cmd: cmd, waited: make(chan struct{})}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("brokers: %s: %w", cfg.Node, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("brokers: start %s: %w", cfg.Node, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.waited)
	}()
	w.proc = p
	return w, nil
}

// tell writes one line to the worker.
func (w *worker) tell(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fmt.Fprintf(w.proc.stdin, format+"\n", args...)
}

// signal sends sig to the worker process alone (SIGSTOP, SIGCONT).
func (w *worker) signal(sig syscall.Signal) error {
	return syscall.Kill(w.proc.pid(), sig)
}

// stop stops the worker process with SIGSTOP and returns once every
// thread of it is stopped: kill returns before a busy process's threads
// have all taken the signal, and one that still ran could act in the
// pause (bounded: 2 s).
func (w *worker) stop() error {
	if err := w.signal(syscall.SIGSTOP); err != nil {
		return err
	}
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if allStopped(w.proc.pid()) {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("brokers: %s (pid %d) not stopped 2 s after SIGSTOP", w.node, w.proc.pid())
}

// allStopped reports whether every thread of pid is stopped (state T).
func allStopped(pid int) bool {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil || len(tasks) == 0 {
		return false
	}
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/stat", pid, t.Name()))
		if err != nil {
			return false
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) == 0 || (f[0] != "T" && f[0] != "t") {
			return false
		}
	}
	return true
}
