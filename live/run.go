package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// Options configure one live run.
type Options struct {
	Config  *sim.Config // the scenario's configuration for one semantics
	Chooser sim.Chooser // keyed random from --seed, or a scripted plan
	DSN     string      // a PostgreSQL URL; "" = a SQLite file in a temporary directory
	Binary  string      // the once executable, started as the service process
	// Tick is the real duration of one virtual millisecond (default 1ms):
	// delays, timeouts, the restart delay and key expiry are scaled by it.
	Tick time.Duration
	// Deadline bounds the run in wall-clock time (default 2 minutes); a
	// run cut by it is unfinished, never a pass.
	Deadline time.Duration
	Stderr   io.Writer // the service process's error output (nil: discarded)
	// Trace, when not nil, receives every event of the run (sends, drops,
	// deliveries, crashes, restarts, outcomes, effects) stamped with the
	// ticks elapsed: the timeline of once live --format trace.
	Trace *sim.Trace
	// Log, when not nil, gets one line per server and service process the
	// run starts, with its address (and pid): what a user can check is
	// gone after the run.
	Log io.Writer
}

// DefaultDeadline is the wall-clock budget of a run.
const DefaultDeadline = 2 * time.Minute

// gatewayCallTimeout bounds one call from the service to the gateway.
const gatewayCallTimeout = 30 * time.Second

// parts are the roles of a scenario that live mode runs for real.
type parts struct {
	client, service, gateway                   sim.NodeID
	clientRole                                 *payments.HTTPClient
	serviceRole                                *payments.PaymentService
	noLock                                     bool // a key still PROCESSING is not answered 409
	gatewayRole                                *payments.Gateway
	pay, payResponse                           sim.MsgKind
	charge, chargeResult, lookup, lookupResult sim.MsgKind
}

// ErrNotLive is returned for a scenario live mode cannot run.
var ErrNotLive = errors.New("live mode runs the scenarios with an http-client, a payment-service and a card-gateway")

func findParts(cfg *sim.Config) (*parts, error) {
	p := &parts{}
	found := 0
	for i, n := range cfg.Nodes {
		switch r := n.(type) {
		case *payments.HTTPClient:
			p.client, p.clientRole = sim.NodeID(i), r
			found |= 1
		case *payments.PaymentService:
			p.service, p.serviceRole = sim.NodeID(i), r
			found |= 2
		case *payments.CheckedService:
			// concurrent-same-key's service: check-then-insert (no lock)
			// or INSERT … ON CONFLICT; the rest as the plain service.
			p.service, p.serviceRole, p.noLock = sim.NodeID(i), &payments.PaymentService{}, !r.Unique
			found |= 2
		case *payments.Gateway:
			p.gateway, p.gatewayRole = sim.NodeID(i), r
			found |= 4
		}
	}
	if found != 7 || p.clientRole.Orders || p.clientRole.ServerIssued {
		return nil, ErrNotLive
	}
	t := cfg.Topology
	for name, k := range map[string]*sim.MsgKind{"pay": &p.pay, "pay-response": &p.payResponse, "charge": &p.charge,
		"charge-result": &p.chargeResult, "lookup": &p.lookup, "lookup-result": &p.lookupResult} {
		id, ok := t.MessageByName(name)
		if !ok {
			return nil, fmt.Errorf("live: the topology has no message %q", name)
		}
		*k = id
	}
	return p, nil
}

// counter forwards events to the checker (and the trace, if any) and
// counts them.
type counter struct {
	checker *sim.Checker
	trace   *sim.Trace
	n       int
}

func (c *counter) Record(e *sim.Event) {
	c.n++
	c.checker.Record(e)
	if c.trace != nil {
		c.trace.Record(e)
	}
}

// Run runs the scenario for real: a card gateway over the database, the
// payment service as a process of its own (restarted after each crash),
// the fault layer between client and service and between service and
// gateway, and the client. It counts the effects in the database
// (SELECT op, count(*) FROM charges GROUP BY op) and returns the verdict
// as the simulator's Outcome, judged by the simulator's checker. Every
// server and process it starts is stopped before it returns, on every
// path; ctx ending (Ctrl-C) stops the run early with an error.
func Run(ctx context.Context, o Options) (*sim.Outcome, error) {
	cfg := o.Config
	p, err := findParts(cfg)
	if err != nil {
		return nil, err
	}
	netw, ok := cfg.Network.(*network.Network)
	if !ok {
		return nil, fmt.Errorf("live: the scenario's network is not a link table")
	}
	if o.Tick <= 0 {
		o.Tick = time.Millisecond
	}
	if o.Deadline <= 0 {
		o.Deadline = DefaultDeadline
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	rec := &counter{checker: sim.NewChecker(cfg.Observe, cfg.Ops), trace: o.Trace}
	dec := NewDecider(cfg.Topology, netw, o.Chooser, rec)
	dec.tick = o.Tick
	start := dec.start

	var cleanups []func()
	defer func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}()
	dsn := o.DSN
	if dsn == "" {
		dir, err := os.MkdirTemp("", "once-live-")
		if err != nil {
			return nil, fmt.Errorf("live: temporary directory: %w", err)
		}
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		dsn = filepath.Join(dir, "once-live.db")
	} else {
		scoped, drop, err := postgresSchema(ctx, dsn)
		if err != nil {
			return nil, err
		}
		cleanups = append(cleanups, drop)
		dsn = scoped
	}
	db, err := Open(dsn)
	if err != nil {
		return nil, err
	}
	cleanups = append(cleanups, func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		return nil, err
	}

	runCtx, cancelRun := context.WithTimeout(ctx, o.Deadline)
	defer cancelRun()
	done := make(chan struct{})
	var closeDone sync.Once
	stopAll := func() { closeDone.Do(func() { close(done) }) }
	cleanups = append(cleanups, stopAll)
	// No keep-alive: net/http's Transport silently resends a request that
	// carries an Idempotency-Key when a reused connection breaks, which
	// would be a retry no client decided and no fault layer saw.
	transport := &http.Transport{Proxy: nil, DisableKeepAlives: true}
	cleanups = append(cleanups, transport.CloseIdleConnections)
	relay := &http.Client{Transport: transport, Timeout: gatewayCallTimeout + 10*time.Second}

	gatewayURL, err := serve(&Gateway{DB: db, Mode: p.gatewayRole.Mode}, &cleanups)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "live: gateway listening on %s\n", gatewayURL)
	sup := &supervisor{binary: o.Binary, node: p.service, dec: dec, done: done, stderr: o.Stderr, log: o.Log,
		restart: time.Duration(cfg.Topology.Nodes[p.service].RestartAfter) * o.Tick}
	back := &Proxy{Decider: dec, Tick: o.Tick, Client: relay, Done: done,
		Target: func() string { return gatewayURL },
		Routes: map[string]route{
			PathCharges: {from: p.service, to: p.gateway, req: p.charge, resp: p.chargeResult},
			PathLookup:  {from: p.service, to: p.gateway, req: p.lookup, resp: p.lookupResult},
		},
		Crash: crashOracle(dec, cfg.Topology, p.service),
	}
	backURL, err := serve(back, &cleanups)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "live: fault layer service→gateway listening on %s\n", backURL)
	svc := p.serviceRole
	spec := &cfg.Topology.Nodes[p.service]
	sup.config = ServiceConfig{
		DSN: dsn, Gateway: backURL, Semantics: cfg.Semantics.Alias(),
		Durable:   len(spec.Tables) == 0 || spec.Tables[0].Durable,
		MarkAfter: svc.MarkAfter, NoLock: p.noLock, Reuse: svc.Reuse,
		TTLMs:     (time.Duration(svc.TTL) * o.Tick).Milliseconds(),
		Crashable: spec.Crashable && spec.CrashProbability > 0 || spec.Crashable && scripted(o.Chooser),
		TimeoutMs: gatewayCallTimeout.Milliseconds(),
	}
	if svc.TTL > 0 && sup.config.TTLMs == 0 {
		sup.config.TTLMs = 1
	}
	cleanups = append(cleanups, sup.stop) // runs after done is closed (cleanups run in reverse)
	cleanups = append(cleanups, stopAll)
	if err := sup.start(); err != nil {
		return nil, err
	}
	front := &Proxy{Decider: dec, Tick: o.Tick, Client: relay, Done: done, Target: sup.Target,
		Routes: map[string]route{PathPayments: {from: p.client, to: p.service, req: p.pay, resp: p.payResponse}}}
	frontURL, err := serve(front, &cleanups)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "live: fault layer client→service listening on %s\n", frontURL)

	cl := p.clientRole
	client := &Client{URL: frontURL, Semantics: cfg.Semantics, Ops: cfg.Ops,
		Interval: time.Duration(cl.Interval) * o.Tick, Timeout: time.Duration(cl.Timeout) * o.Tick,
		MaxAttempts: cl.MaxAttempts, KeyPerTry: cl.KeyPerTry, ReuseFirst: cl.ReuseFirst, Clicks: cl.Clicks,
		HTTP: &http.Client{Transport: transport}, Decider: dec, Node: p.client}
	client.Run(runCtx)
	finished := waitQuiet(runCtx, func() bool { return front.Idle() && back.Idle() && sup.Settled() })
	if ctx.Err() != nil {
		return nil, fmt.Errorf("live: interrupted: %w", ctx.Err())
	}
	if err := sup.Err(); err != nil {
		return nil, err
	}
	stopAll()
	sup.stop()

	effects, err := db.Effects(context.Background())
	if err != nil {
		return nil, err
	}
	sink := sim.SinkID(0)
	if len(cfg.Observe.Sinks) > 0 {
		sink = cfg.Observe.Sinks[0]
	}
	for op := 1; op <= cfg.Ops; op++ {
		for i := int32(0); i < effects[int32(op)]; i++ {
			dec.Record(sim.Event{Kind: sim.EvEffect, Node: p.gateway, Peer: sim.NoNode, Label: uint8(sink),
				Msg: sim.Message{Op: sim.OpID(op)}})
		}
	}
	return outcome(cfg, rec, finished, time.Since(start), o.Tick), nil
}

// scripted reports whether ch replays a plan: a plan may name a crash even
// where the profile gives crashes no probability.
func scripted(ch sim.Chooser) bool {
	_, ok := ch.(*sim.Scripted)
	return ok
}

// outcome folds the checker's tallies into the simulator's Outcome.
func outcome(cfg *sim.Config, rec *counter, finished bool, elapsed, tick time.Duration) *sim.Outcome {
	c := rec.checker
	o := &sim.Outcome{Semantics: cfg.Semantics, End: sim.Quiescent, Events: rec.n,
		EndTime: sim.Time(elapsed / tick), Faults: c.Faults()}
	if !finished {
		o.End = sim.TimeBudget
	}
	n := c.ObservedSinks()
	for i := 1; i <= c.Ops(); i++ {
		t := c.Tally(sim.OpID(i))
		r := sim.OpResult{Op: sim.OpID(i), Attempts: t.Attempts, Deliveries: t.Deliveries, Effects: t.MaxEffects(n),
			Outcomes: t.Outcomes, DistinctOutcomes: t.DistinctOutcomes(), Verdict: sim.VerdictOf(t.MinEffects(n), t.MaxEffects(n)),
			Outcome: c.OpOutcome(sim.OpID(i), finished)}
		if n > 1 {
			r.SinkEffects = append([]int32(nil), t.Sinks[:n]...)
		}
		o.Ops = append(o.Ops, r)
	}
	o.Status, o.Why = c.Judge(cfg.Semantics.Promise(), finished)
	o.Guarantee = o.Status // the checker alone: live mode judges no invariants
	return o
}

// waitQuiet polls quiet until it holds twice in a row (nothing in flight,
// no restart pending), or ctx ends: false then.
func waitQuiet(ctx context.Context, quiet func() bool) bool {
	calm := 0
	for {
		if quiet() {
			calm++
			if calm >= 2 {
				return true
			}
		} else {
			calm = 0
		}
		if !sleepCtx(ctx, 20*time.Millisecond) {
			return false
		}
	}
}

// serve starts h on a free port of 127.0.0.1 and returns its base URL; the
// server's shutdown is added to cleanups.
func serve(h http.Handler, cleanups *[]func()) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("live: listen: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: discardLog}
	served := make(chan struct{})
	go func() { srv.Serve(ln); close(served) }()
	*cleanups = append(*cleanups, func() {
		srv.Close()
		<-served
	})
	return "http://" + ln.Addr().String(), nil
}

// crashOracle answers the service's question at a crash point: "crash" or
// "run", decided by the Decider under the simulator's identity.
func crashOracle(dec *Decider, topo *sim.Topology, node sim.NodeID) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		point, ok1 := topo.PointByName(q.Get("point"))
		msg, ok2 := topo.MessageByName(q.Get("msg"))
		op, err1 := strconv.ParseInt(q.Get("op"), 10, 32)
		attempt, err2 := strconv.ParseInt(q.Get("attempt"), 10, 32)
		if !ok1 || !ok2 || err1 != nil || err2 != nil {
			http.Error(w, "bad crash point", http.StatusBadRequest)
			return
		}
		m := sim.Message{To: node, Kind: msg, Op: sim.OpID(op), Attempt: int32(attempt)}
		if dec.Crash(node, point, m) {
			io.WriteString(w, oracleKill)
			return
		}
		io.WriteString(w, oracleGoOn)
	})
}
