package brokers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Server is one throwaway broker server: a child process (and RabbitMQ's
// own epmd) listening on 127.0.0.1, with its data in a temporary
// directory that Stop removes.
type Server struct {
	Kind Kind
	// Addr is host:port of the broker's client protocol (AMQP, RESP,
	// NATS); URL is what its Go client dials.
	Addr, URL string
	// Dir is the server's temporary directory (data, pid file, log).
	Dir string

	mu    sync.Mutex
	procs []*process // started first → stopped last
	port  int
	extra int // NATS's monitoring port
	log   *os.File
	// restart starts the server's main process again on its directory
	// (RabbitMQ: the node, its epmd kept), for CrashAndRestart.
	restart func(log io.Writer) error
}

// ServerOptions configure Start.
type ServerOptions struct {
	// ReadyTimeout bounds the wait until the server answers (default:
	// 20 s, RabbitMQ 150 s: it boots in 7–15 s, and 40 s at load 16).
	ReadyTimeout time.Duration
	// TempDir is where the server's directory is made ("": os.TempDir).
	TempDir string
	// Log, when not nil, gets one line per process started and stopped,
	// with its pid.
	Log io.Writer
}

// Start starts a throwaway server of kind on free loopback ports and
// returns once it answers. On every error path whatever it started is
// stopped and its directory removed.
func Start(ctx context.Context, kind Kind, o ServerOptions) (s *Server, err error) {
	if kind == KFake {
		return nil, fmt.Errorf("brokers: kfake runs inside once (franz-go's kfake), not as a server process")
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	sweep(o.TempDir) // what a run killed with SIGKILL left
	dir, err := os.MkdirTemp(o.TempDir, tempPattern(string(kind)))
	if err != nil {
		return nil, fmt.Errorf("brokers: %w", err)
	}
	s = &Server{Kind: kind, Dir: dir}
	defer func() {
		if err != nil {
			s.Stop()
			s = nil
		}
	}()
	if s.log, err = os.Create(filepath.Join(dir, "server.log")); err != nil {
		return s, fmt.Errorf("brokers: %w", err)
	}
	ready := o.ReadyTimeout
	switch kind {
	case Redis:
		err = s.startRedis(o.Log)
	case RabbitMQ:
		err = s.startRabbitMQ(o.Log)
		if ready == 0 {
			ready = 150 * time.Second
		}
	case NATS:
		err = s.startNATS(o.Log)
	default:
		err = fmt.Errorf("brokers: unknown broker %q", kind)
	}
	if err != nil {
		return s, err
	}
	if ready == 0 {
		ready = 20 * time.Second
	}
	return s, s.waitReady(ctx, ready)
}

// start starts one process of the server with its output in server.log.
func (s *Server) start(log io.Writer, name string, cmd *exec.Cmd) (*process, error) {
	cmd.Dir = s.Dir
	p, err := startProcess(name, cmd, s.log)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.procs = append(s.procs, p)
	s.mu.Unlock()
	fmt.Fprintf(log, "brokers: %s started (pid %d) in %s\n", name, p.pid(), s.Dir)
	return p, nil
}

func (s *Server) startRedis(log io.Writer) error {
	bin, err := lookBinary("redis-server", "/usr/bin/redis-server")
	if err != nil {
		return err
	}
	if s.port, err = freePorts(1); err != nil {
		return err
	}
	s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	s.URL = "redis://" + s.Addr
	_, err = s.start(log, "redis-server", exec.Command(bin, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", s.Dir, "--logfile", ""))
	return err
}

func (s *Server) startNATS(log io.Writer) error {
	bin, err := lookBinary("nats-server", "/usr/sbin/nats-server", "/usr/bin/nats-server")
	if err != nil {
		return err
	}
	if s.port, err = freePorts(1); err != nil {
		return err
	}
	if s.extra, err = freePorts(1); err != nil {
		return err
	}
	s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	s.URL = "nats://" + s.Addr
	_, err = s.start(log, "nats-server", exec.Command(bin, "-js", "-sd", filepath.Join(s.Dir, "js"), "-a", "127.0.0.1",
		"-p", strconv.Itoa(s.port), "-m", strconv.Itoa(s.extra)))
	return err
}

// rabbitBin and epmdBin are where Debian's packages put them; the
// rabbitmq-server of /usr/sbin is not used (as root it switches to the
// rabbitmq user and logs under /var/log).
const rabbitBin = "/usr/lib/rabbitmq/bin/rabbitmq-server"

func (s *Server) startRabbitMQ(log io.Writer) error {
	bin, err := lookBinary("rabbitmq-server-foreground", rabbitBin)
	if err != nil {
		return err
	}
	epmds, _ := filepath.Glob("/usr/lib/erlang/erts-*/bin/epmd")
	if len(epmds) == 0 {
		return fmt.Errorf("%w: epmd (Erlang's, from the erlang-base package)", ErrMissing)
	}
	// The node's AMQP port P, its distribution port P+1, its epmd P+2.
	if s.port, err = freePorts(3); err != nil {
		return err
	}
	p, d := strconv.Itoa(s.port), s.Dir
	s.Addr = net.JoinHostPort("127.0.0.1", p)
	s.URL = "amqp://guest:guest@" + s.Addr + "/"
	if err := os.WriteFile(filepath.Join(d, "enabled_plugins"), []byte("[].\n"), 0o644); err != nil {
		return fmt.Errorf("brokers: %w", err)
	}
	if err := os.WriteFile(filepath.Join(d, "rabbitmq.conf"), []byte("loopback_users = none\n"), 0o644); err != nil {
		return fmt.Errorf("brokers: %w", err)
	}
	epmdPort := strconv.Itoa(s.port + 2)
	env := append(os.Environ(), "HOME="+d, "RABBITMQ_CONF_ENV_FILE=/dev/null",
		"RABBITMQ_CONFIG_FILE="+filepath.Join(d, "rabbitmq.conf"), "RABBITMQ_ADVANCED_CONFIG_FILE="+filepath.Join(d, "advanced.config"),
		"RABBITMQ_ENABLED_PLUGINS_FILE="+filepath.Join(d, "enabled_plugins"), "RABBITMQ_NODENAME=once"+p+"@localhost",
		"RABBITMQ_NODE_IP_ADDRESS=127.0.0.1", "RABBITMQ_NODE_PORT="+p, "RABBITMQ_DIST_PORT="+strconv.Itoa(s.port+1),
		"ERL_EPMD_PORT="+epmdPort, "ERL_EPMD_ADDRESS=127.0.0.1",
		"RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-kernel inet_dist_use_interface {127,0,0,1}",
		"RABBITMQ_MNESIA_BASE="+filepath.Join(d, "mnesia"), "RABBITMQ_LOG_BASE="+filepath.Join(d, "log"), "RABBITMQ_LOGS=-",
		"RABBITMQ_PID_FILE="+filepath.Join(d, "pid"),
		// The script execs the Erlang VM itself (no shell in between to
		// outlive it), so the parent-death signal reaches the node; its
		// shell reads our stdin pipe and halts the node at end of file.
		"RABBITMQ_ALLOW_INPUT=1")
	epmd := exec.Command(epmds[0], "-port", epmdPort, "-address", "127.0.0.1")
	if _, err := s.start(log, "epmd", epmd); err != nil {
		return err
	}
	s.restart = func(log io.Writer) error {
		node := exec.Command(bin)
		node.Env = env
		_, err := s.start(log, "rabbitmq-server", node)
		return err
	}
	return s.restart(log)
}

// CrashAndRestart kills the server's main process with SIGKILL (its
// group too: nothing is flushed, a stale pid file is left) and starts it
// again on the same directory, returning once it answers: a broker crash
// with its durable state kept. RabbitMQ only.
func (s *Server) CrashAndRestart(ctx context.Context, log io.Writer) error {
	if s.restart == nil {
		return fmt.Errorf("brokers: %s: no crash and restart", s.Kind)
	}
	if log == nil {
		log = io.Discard
	}
	s.mu.Lock()
	main := s.procs[len(s.procs)-1]
	s.procs = s.procs[:len(s.procs)-1]
	s.mu.Unlock()
	main.kill()
	if main.stdin != nil {
		main.stdin.Close()
	}
	fmt.Fprintf(log, "brokers: %s killed (SIGKILL, pid %d)\n", main.name, main.pid())
	if err := s.restart(log); err != nil {
		return err
	}
	return s.waitReady(ctx, 150*time.Second)
}

// waitReady polls the server's protocol until it answers, the server
// exits, ctx ends or timeout passes.
func (s *Server) waitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	s.mu.Lock()
	main := s.procs[len(s.procs)-1]
	s.mu.Unlock()
	for {
		if s.answers() {
			return nil
		}
		select {
		case <-main.exited():
			return fmt.Errorf("brokers: %s exited before it was ready (%v); its log ends: %s", s.Kind, main.err, s.logTail())
		case <-ctx.Done():
			return fmt.Errorf("brokers: %s: %w", s.Kind, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("brokers: %s not ready after %s; its log ends: %s", s.Kind, timeout, s.logTail())
		}
	}
}

// answers speaks one exchange of the broker's protocol.
func (s *Server) answers() bool {
	if s.Kind == NATS {
		c := http.Client{Timeout: time.Second}
		resp, err := c.Get("http://127.0.0.1:" + strconv.Itoa(s.extra) + "/healthz?js-enabled-only=true")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	conn, err := net.DialTimeout("tcp", s.Addr, time.Second)
	if err != nil {
		return false
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Second))
	hello, want := []byte("PING\r\n"), []byte("+PONG")
	if s.Kind == RabbitMQ { // the protocol header; the node answers Connection.Start, a method frame
		hello, want = []byte("AMQP\x00\x00\x09\x01"), []byte{1}
	}
	if _, err := conn.Write(hello); err != nil {
		return false
	}
	got := make([]byte, len(want))
	_, err = io.ReadFull(conn, got)
	return err == nil && bytes.Equal(got, want)
}

// logTail is the end of the server's log, for an error line.
func (s *Server) logTail() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "server.log"))
	if len(b) > 400 {
		b = b[len(b)-400:]
	}
	return string(bytes.TrimSpace(b))
}

// Pids are the process ids of the server's processes, for a check that
// none is left.
func (s *Server) Pids() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ps []int
	for _, p := range s.procs {
		ps = append(ps, p.pid())
	}
	return ps
}

// Stop stops every process of the server by PID, the server first
// (SIGTERM; NATS SIGINT, as its clean exit is on SIGINT) and then
// SIGKILL after a grace, and removes the directory. It is safe to call
// more than once and from any path (error, timeout, signal).
func (s *Server) Stop() error {
	s.mu.Lock()
	procs := s.procs
	s.procs = nil
	s.mu.Unlock()
	var errs []error
	for i := len(procs) - 1; i >= 0; i-- {
		sig := syscall.SIGTERM
		if s.Kind == NATS {
			sig = syscall.SIGINT
		}
		errs = append(errs, procs[i].stop(sig))
	}
	if s.log != nil {
		s.log.Close()
	}
	if s.Dir != "" {
		errs = append(errs, os.RemoveAll(s.Dir))
	}
	return errors.Join(errs...)
}

// Installed reports, wrapping ErrMissing, a server of kind that is not
// installed (kfake is part of once: always installed).
func Installed(kind Kind) error {
	var err error
	switch kind {
	case Redis:
		_, err = lookBinary("redis-server", "/usr/bin/redis-server")
	case NATS:
		_, err = lookBinary("nats-server", "/usr/sbin/nats-server", "/usr/bin/nats-server")
	case RabbitMQ:
		if _, err = lookBinary("rabbitmq-server-foreground", rabbitBin); err == nil {
			if epmds, _ := filepath.Glob("/usr/lib/erlang/erts-*/bin/epmd"); len(epmds) == 0 {
				err = fmt.Errorf("%w: epmd (Erlang's, from the erlang-base package)", ErrMissing)
			}
		}
	}
	return err
}
