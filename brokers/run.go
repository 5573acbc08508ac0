package brokers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/live"
	"github.com/oncesim/once/network"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// ErrUsage marks an error that is the user's input (exit 2): an unknown
// broker, a scenario that does not declare it, a remote --broker-url.
var ErrUsage = errors.New("usage")

// usageError is a one-line input error; errors.Is(err, ErrUsage) holds.
// Where it has a message in report/lang's locales, worded is the mistake
// (usererr) that words it in the reader's language.
type usageError struct {
	msg    string
	worded *usererr.Error
}

func (e *usageError) Error() string        { return e.msg }
func (e *usageError) Is(target error) bool { return target == ErrUsage }

// Unwrap is the worded mistake, for lang.ErrorLine; nil when none.
func (e *usageError) Unwrap() error {
	if e.worded == nil {
		return nil
	}
	return e.worded
}

// usage is a one-line input error (English only: live's own refusals are).
func usage(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// Options configure RunAll.
type Options struct {
	Broker      string // --broker: redis | rabbitmq | nats | kfake
	URL         string // --broker-url: a server of the user's instead of one once starts
	AllowRemote bool   // --allow-remote: a --broker-url off loopback
	Variant     string // --variant: the consumer's variant ("" = the semantics' default)
	// Worker is the command that runs a worker process (WorkerMain): the
	// once executable and WorkerCommand; WorkerEnv is added to its
	// environment.
	Worker    []string
	WorkerEnv []string
	Deadline  time.Duration // wall-clock budget of each run (default 2 minutes)
	// Server is a server of the caller's that a run may kill and restart
	// (rabbitmq-broker-crash); nil: RabbitMQ runs without --broker-url
	// get the one RunAll starts.
	Server *Server
	// Stderr gets what runs where, the evidence of each run (the broker's
	// own words: Redelivered=true, OK/nil, the pause by SIGSTOP) and, with
	// Verbose, every process started with its pid.
	Stderr  io.Writer
	Verbose bool
}

// env is what a driver's run is given.
type env struct {
	o        *Options
	kind     Kind
	url      string  // the broker
	srv      *Server // the broker's server when once started it (nil with --broker-url): a run may crash it
	cfg      *sim.Config
	set      scenarios.Settings
	dec      *live.Decider
	rec      *recorder
	dir      string // the run's temporary directory (its SQLite ledger)
	prefix   string // the run's key prefix, queue or stream name: runs share one server
	variant  string
	evidence io.Writer
	mu       sync.Mutex // evidence lines come from several goroutines
}

// say writes one line of evidence, naming the broker.
func (e *env) say(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	fmt.Fprintf(e.evidence, "%s: %s\n", e.kind, fmt.Sprintf(format, args...))
}

// driver runs one scenario's roles over one broker.
type driver interface {
	// variants are the consumer variants it runs under sem; the first is
	// the default. None: the scenario's parameters alone decide.
	variants(sem sim.Semantics) []string
	run(ctx context.Context, e *env) (finished bool, err error)
	// effectNode is the node whose effects the ledger counts.
	effectNode() string
	// applies are the fault kinds the driver applies to the real broker;
	// the others the decider may decide are not applied (the run says so).
	applies() []sim.FaultKind
}

// driverFor finds the driver of the scenario's roles on kind.
func driverFor(cfg *sim.Config, kind Kind) driver {
	switch kind {
	case Redis:
		if d := newLockDriver(cfg); d != nil {
			return d
		}
		if d := newStreamDriver(cfg); d != nil {
			return d
		}
	case RabbitMQ:
		if d := newConsumerDriver(cfg); d != nil {
			return d
		}
		if d := newCrashDriver(cfg); d != nil {
			return d
		}
	case NATS:
		if d := newJetStreamDriver(cfg); d != nil {
			return d
		}
	case KFake:
		if d := newProducerDriver(cfg); d != nil {
			return d
		}
	}
	return nil
}

// Check refuses, in one line and before anything starts, a broker run
// that cannot be made: an unknown broker, a scenario whose live.brokers
// does not list it, roles no driver runs there, an unknown variant, a
// --broker-url off loopback without --allow-remote.
func Check(o *Options, sc *scenarios.Scenario, ps []live.Planned) (Kind, error) {
	if o.Broker == "" {
		return "", usage("--broker-url and --variant go with --broker (%s)", strings.Join(kindNames(), "|"))
	}
	kind, err := ParseKind(o.Broker)
	if err != nil {
		return "", &usageError{err.Error(), usererr.New("unknown_broker", map[string]any{"Value": o.Broker, "Want": strings.Join(kindNames(), ", ")}, err.Error())}
	}
	if !sc.RunsOn(string(kind)) {
		data := map[string]any{"Scenario": sc.Name, "Broker": string(kind)}
		if len(sc.Brokers) == 0 {
			text := fmt.Sprintf("scenario %s does not run on --broker %s: its live.brokers lists none", sc.Name, kind)
			return "", &usageError{text, usererr.New("broker_none_declared", data, text)}
		}
		data["Listed"] = strings.Join(sc.Brokers, ", ")
		text := fmt.Sprintf("scenario %s does not run on --broker %s: its live.brokers lists %s", sc.Name, kind, data["Listed"])
		return "", &usageError{text, usererr.New("broker_not_declared", data, text)}
	}
	for _, p := range ps {
		d := driverFor(p.Config, kind)
		if d == nil {
			return "", usage("scenario %s: no %s driver runs its roles yet (docs/live.md lists the broker runs)", sc.Name, kind)
		}
		if vs := d.variants(p.Config.Semantics); o.Variant != "" && !slices.Contains(vs, o.Variant) {
			if len(vs) == 0 {
				return "", usage("--variant %s: scenario %s has no variants on %s under %s", o.Variant, sc.Name, kind, p.Config.Semantics.Alias())
			}
			return "", usage("--variant %s: want one of %s (scenario %s on %s under %s)", o.Variant, strings.Join(vs, ", "), sc.Name, kind, p.Config.Semantics.Alias())
		}
	}
	if o.URL != "" {
		if err := checkURL(kind, o.URL, o.AllowRemote); err != nil {
			return "", usage("%v", err)
		}
		for _, p := range ps {
			if _, crashes := driverFor(p.Config, kind).(*crashDriver); crashes {
				return "", usage("--broker-url: scenario %s kills and restarts the broker; give no --broker-url, once starts a server of its own", sc.Name)
			}
		}
	}
	return kind, nil
}

func kindNames() []string {
	var s []string
	for _, k := range Kinds {
		s = append(s, string(k))
	}
	return s
}

// checkURL accepts a --broker-url of the broker's scheme on loopback
// (anywhere with allowRemote).
func checkURL(kind Kind, raw string, allowRemote bool) error {
	scheme := map[Kind]string{Redis: "redis", RabbitMQ: "amqp", NATS: "nats"}[kind]
	if scheme == "" {
		return fmt.Errorf("--broker-url: kfake runs inside once; give no URL")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != scheme || u.Host == "" {
		return fmt.Errorf("--broker-url %q: want a %s://HOST:PORT URL", live.MaskURL(raw), scheme)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); !allowRemote && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--broker-url %s: not loopback; give --allow-remote to use a broker elsewhere", live.MaskURL(raw))
	}
	return nil
}

// RunAll runs the planned runs of sc on the broker: a throwaway server
// started for them (or --broker-url's), each run isolated by its key
// prefix or queue name, the server stopped on every path. Call Check
// first.
func RunAll(ctx context.Context, o Options, sc *scenarios.Scenario, ps []live.Planned) ([]runs.Run, error) {
	kind, err := Check(&o, sc, ps)
	if err != nil {
		return nil, err
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.Deadline <= 0 {
		o.Deadline = live.DefaultDeadline
	}
	var logw io.Writer = io.Discard
	if o.Verbose {
		logw = o.Stderr
	}
	addr, srv := o.URL, o.Server
	switch {
	case kind == KFake:
		addr = "in-process"
	case srv != nil:
		addr = srv.URL
	case addr == "":
		fmt.Fprintf(o.Stderr, "live: starting a throwaway %s server on 127.0.0.1…\n", kind.Title())
		if srv, err = Start(ctx, kind, ServerOptions{Log: logw}); err != nil {
			return nil, err
		}
		defer srv.Stop()
		addr = srv.URL
	}
	var done []runs.Run
	for _, p := range ps {
		d := driverFor(p.Config, kind)
		variant := o.Variant
		if vs := d.variants(p.Config.Semantics); variant == "" && len(vs) > 0 {
			variant = vs[0]
		}
		what := p.Settings.Semantics.Alias()
		if variant != "" {
			what += ", " + variant
		}
		where := kind.Title()
		if kind != KFake {
			where += " (" + live.MaskURL(addr) + ")"
		}
		fmt.Fprintf(o.Stderr, "live: %s %s on %s, effects in SQLite; broker timing is real time (1 tick = 1 ms)\n", sc.Name, what, where)
		out, trace, err := runOne(ctx, &o, kind, addr, srv, d, variant, p)
		if err != nil {
			return nil, err
		}
		done = append(done, runs.Run{Config: p.Config, Outcome: out, Trace: trace, Replay: strings.Replace(p.Replay, "once run ", "once live ", 1) + " --broker " + string(kind) + variantFlag(o.Variant)})
	}
	return done, nil
}

func variantFlag(v string) string {
	if v == "" {
		return ""
	}
	return " --variant " + v
}

// runOne makes one run: its decider, its temporary directory and ledger,
// the driver's processes; it judges the effects counted in the ledger.
func runOne(ctx context.Context, o *Options, kind Kind, addr string, srv *Server, d driver, variant string, p live.Planned) (*sim.Outcome, *sim.Trace, error) {
	cfg := p.Config
	netw, ok := cfg.Network.(*network.Network)
	if !ok {
		return nil, nil, fmt.Errorf("brokers: the scenario's network is not a link table")
	}
	dir, err := os.MkdirTemp("", tempPattern("run"))
	if err != nil {
		return nil, nil, fmt.Errorf("brokers: %w", err)
	}
	defer os.RemoveAll(dir)
	trace := &sim.Trace{}
	rec := newRecorder(cfg, trace)
	var b [4]byte
	rand.Read(b[:])
	e := &env{o: o, kind: kind, url: addr, srv: srv, cfg: cfg, set: p.Settings, dec: live.NewDecider(cfg.Topology, netw, p.Chooser, rec),
		rec: rec, dir: dir, prefix: "once-" + hex.EncodeToString(b[:]), variant: variant, evidence: &lockedWriter{w: o.Stderr}}
	runCtx, cancel := context.WithTimeout(ctx, o.Deadline)
	defer cancel()
	e.dec.Begin()
	finished, err := d.run(runCtx, e)
	if ctx.Err() != nil {
		return nil, nil, fmt.Errorf("live: interrupted: %w", ctx.Err())
	}
	if err != nil {
		return nil, nil, err
	}
	db, err := openLedger(ledgerPath(dir))
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	readCtx, cancelRead := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelRead()
	n, err := effects(readCtx, db)
	if err != nil {
		return nil, nil, err
	}
	sink := sim.SinkID(0)
	if len(cfg.Observe.Sinks) > 0 {
		sink = cfg.Observe.Sinks[0]
	}
	at := sim.NoNode
	if id, ok := cfg.Topology.NodeByName(d.effectNode()); ok {
		at = id
	}
	for op := 1; op <= cfg.Ops; op++ {
		for i := 0; i < n[op]; i++ {
			e.dec.Record(sim.Event{Kind: sim.EvEffect, Node: at, Peer: sim.NoNode, Label: uint16(sink), Msg: sim.Message{Op: sim.OpID(op)}})
		}
	}
	return rec.outcome(cfg, finished, e.dec.Elapsed()), trace, nil
}

// ledgerPath is the run's SQLite file.
func ledgerPath(dir string) string { return dir + "/ledger.db" }

// lockedWriter serialises writes: evidence lines and the worker
// processes' error output reach it from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
