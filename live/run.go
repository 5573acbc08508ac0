package live

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// Options configure one live run.
type Options struct {
	Config *sim.Config // the scenario's configuration for one semantics
	// Faults, when not nil, is the fault profile Config was made with:
	// a fault it asks for that live cannot inject is refused.
	Faults  *sim.FaultProfile
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
	// Target, when not empty, is the base URL of the user's own payment
	// service: the client drives it through the fault layer instead of
	// once's service process; it charges through the provider fault layer
	// listening on ProviderAddr (ONCE_PROVIDER_URL).
	Target       string
	ProviderAddr string
	// RestartCmd, with Target, is the user's command (run with sh -c)
	// that kills the service and starts it again: where the decider
	// draws a crash of the service, the fault layer runs it (restart.go).
	RestartCmd string
	// TargetReady, with Target, is how long to wait for the target to
	// answer HTTP before the run (0: ask once; WaitReady).
	TargetReady time.Duration
	// Log, when not nil, gets one line per server and service process the
	// run starts, with its address (and pid): what a user can check is
	// gone after the run.
	Log io.Writer
	// Evidence, when not nil, is filled with where the run ran: the
	// mode, the target, the provider's URL and mode (the JSON's "live").
	Evidence *report.LiveDoc
}

// Validate reports, in one line, an option out of range: the tick, the
// deadline, a DSN that is not a PostgreSQL URL.
func (o *Options) Validate() error {
	if o.Tick < 0 || o.Tick > time.Second {
		return fmt.Errorf("tick %s: want real time per virtual millisecond in (0, 1s]", o.Tick)
	}
	if o.Deadline < 0 {
		return fmt.Errorf("deadline %s: want a positive duration", o.Deadline)
	}
	if o.TargetReady < 0 || (o.TargetReady > 0 && o.Target == "") {
		return refuse("live_target_ready", map[string]any{"Ready": o.TargetReady.String()}, fmt.Sprintf("--target-ready %s: want a positive duration, with --target", o.TargetReady))
	}
	if o.RestartCmd != "" && o.Target == "" {
		return refuse("live_restart_without_target", nil, "--restart-cmd goes with --target: once restarts its own service itself")
	}
	if o.DSN != "" && !IsPostgres(o.DSN) {
		return refuse("live_db", map[string]any{"DB": o.DSN}, fmt.Sprintf("--db %q: want a postgres:// or postgresql:// URL (leave it out for SQLite)", o.DSN))
	}
	return nil
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
	// checked is the checked-payment-service of concurrent-same-key and
	// store-outage-fail-closed, whose key store is a node of its own.
	checked *payments.CheckedService
	store   sim.NodeID
	// lease is the lease-payment-service of stuck-processing-lease: the
	// idempotent service with locked_at, its key store a node of its own.
	lease *payments.LeaseService
	// intent is the intent-service of ambiguous-external-outcome, with
	// its reconciler (intentrun.go).
	intent            *payments.IntentService
	reconciler        sim.NodeID
	reconcilerRole    *payments.Reconciler
	unknown, resolved sim.MsgKind
	// rest is the rest-client and rest-service of key-scoped-to-user
	// (scope.go): the service charges in its own transaction.
	rest *restParts
}

// ErrNotLive is returned, wrapped with the reason, for a scenario or a
// fault live mode cannot run for real.
var ErrNotLive = errors.New("not runnable live")

// errNoParts is why a scenario is not runnable live.
var errNoParts = fmt.Errorf("%w: live runs the scenarios of an http-client, a payment-service (or a checked- or lease-payment-service and its key-store, or an intent-service and its reconciler) and a card-gateway, or a rest-client and its rest-service (docs/live.md lists them)", ErrNotLive)

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
			// concurrent-same-key's and store-outage's service: each store
			// statement a step of its own, at the key store node.
			p.service, p.serviceRole, p.noLock, p.checked, p.store = sim.NodeID(i), &payments.PaymentService{}, !r.Unique, r, r.Store
			found |= 2
		case *payments.LeaseService:
			p.service, p.serviceRole, p.lease, p.store = sim.NodeID(i), &payments.PaymentService{}, r, r.Store
			found |= 2
		case *payments.IntentService:
			p.service, p.serviceRole, p.intent = sim.NodeID(i), &payments.PaymentService{}, r
			found |= 2
		case *payments.Gateway:
			p.gateway, p.gatewayRole = sim.NodeID(i), r
			found |= 4
		case *payments.RestClient, *payments.RestService:
			found |= p.restPart(sim.NodeID(i), n)
		}
	}
	if found != 7 || p.clientRole.Orders || p.clientRole.ServerIssued {
		return nil, errNoParts
	}
	if p.checked != nil || p.lease != nil {
		if _, ok := cfg.Nodes[p.store].(*payments.KeyStore); !ok {
			return nil, errNoParts
		}
	}
	if p.intent != nil {
		if err := intentParts(cfg, p); err != nil {
			return nil, err
		}
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
	p.restKinds(t)
	return p, nil
}

// counter forwards events to the checker, the scenario's invariants and
// metrics (and the trace, if any) and counts them; past the event budget
// it cuts the run.
type counter struct {
	checker *sim.Checker
	// digest folds every event recorded, as the simulator's trace digest
	// does (the report's "trace" line): the digest of this live run's
	// trace, which another live run on the same seed need not share.
	topo    *sim.Topology
	digest  sim.Digest
	invs    []sim.Invariant
	metrics []sim.Metric
	trace   *sim.Trace
	n       int
	budget  int
	cut     func()
}

func (c *counter) Record(e *sim.Event) {
	c.n++
	c.checker.Record(e)
	if c.topo != nil {
		c.digest = c.digest.Add(c.topo, e)
	}
	for _, inv := range c.invs {
		inv.Record(e)
	}
	for _, m := range c.metrics {
		m.Record(e)
	}
	if c.trace != nil {
		c.trace.Record(e)
	}
	if c.budget > 0 && c.n == c.budget && c.cut != nil {
		c.cut()
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
	if err := Supports(cfg, o.Faults); err != nil {
		return nil, err
	}
	if o.Target != "" {
		if err := SupportsTarget(cfg, o.Faults, o.RestartCmd != ""); err != nil {
			return nil, err
		}
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
	// The scenario's time budget: on a jumping clock it is kept by the
	// clock itself (a jump past it cuts the run); at wall speed, by the
	// wall-clock deadline.
	if maxTime := cfg.MaxTime; maxTime > 0 && !JumpsFor(o.Target) && time.Duration(maxTime)*o.Tick < o.Deadline {
		o.Deadline = time.Duration(maxTime) * o.Tick // the scenario's time budget, in real time
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	runCtx, cancelRun := context.WithTimeout(ctx, o.Deadline)
	defer cancelRun()
	rec := &counter{checker: sim.NewChecker(cfg.Observe, cfg.Ops), trace: o.Trace, budget: cfg.MaxEvents, cut: cancelRun,
		topo: cfg.Topology, digest: sim.NewDigest()}
	rec.checker.UseKinds(cfg.Topology.Registry())
	if rec.budget == 0 {
		rec.budget = sim.DefaultMaxEvents
	}
	if cfg.Invariants != nil {
		rec.invs = cfg.Invariants()
	}
	if p.rest != nil {
		rec.invs = receiptsAfterCharges(rec.invs)
	}
	if cfg.Metrics != nil {
		rec.metrics = cfg.Metrics()
	}
	dec := NewDecider(cfg.Topology, netw, o.Chooser, rec)
	dec.tick = o.Tick
	// Every timed party of once's own reads the run's clock (the service
	// and the gateway through X-Once-Now): when only timers are left, the
	// clock jumps to the next, as the simulator's does. Your service under
	// --target may keep its own clock: time runs at wall speed there.
	dec.clk.jumping(JumpsFor(o.Target))
	if cfg.MaxTime > 0 {
		dec.clk.budget(time.Duration(cfg.MaxTime)*o.Tick, cancelRun)
	}

	if o.Target != "" {
		if err := WaitReady(ctx, o.Target, o.TargetReady, o.Stderr); err != nil {
			return nil, err
		}
	}
	var cleanups []func()
	defer func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}()
	dsn, err := workspace(ctx, o.DSN, &cleanups)
	if err != nil {
		return nil, err
	}
	db, err := Open(dsn)
	if err != nil {
		return nil, err
	}
	cleanups = append(cleanups, func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		return nil, err
	}

	done := make(chan struct{})
	var closeDone sync.Once
	stopAll := func() { closeDone.Do(func() { close(done) }) }
	cleanups = append(cleanups, stopAll)
	// No keep-alive: net/http's Transport silently resends a request that
	// carries an Idempotency-Key when a reused connection breaks, which
	// would be a retry no client decided and no fault layer saw.
	transport := &http.Transport{Proxy: nil, DisableKeepAlives: true}
	cleanups = append(cleanups, transport.CloseIdleConnections)
	// No redirect followed: a 3xx is relayed as it is and, from --target,
	// ends the run (front.Fail) — a loopback target must not send the
	// payment to the address its Location names.
	relay := &http.Client{Transport: transport, Timeout: gatewayCallTimeout + 10*time.Second, CheckRedirect: noRedirect}

	gatewayURL, err := serve(&Gateway{DB: db, Mode: p.gatewayRole.Mode, Ops: cfg.Ops}, &cleanups)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "live: gateway listening on %s\n", gatewayURL)
	sup := &supervisor{binary: o.Binary, node: p.service, dec: dec, done: done, stderr: o.Stderr, log: o.Log,
		restart: time.Duration(cfg.Topology.Nodes[p.service].RestartAfter) * o.Tick}
	act := newActivity(dec.clk)
	back := &Proxy{Decider: dec, Tick: o.Tick, Client: relay, Done: done, Act: act,
		Target: func() string { return gatewayURL },
		Routes: map[string]route{
			PathCharges: {from: p.service, to: p.gateway, req: p.charge, resp: p.chargeResult},
			PathLookup:  {from: p.service, to: p.gateway, req: p.lookup, resp: p.lookupResult},
		},
		Crash: &pointOracle{dec: dec, topo: cfg.Topology, node: p.service, sup: sup, tick: o.Tick, done: done},
	}
	if p.checked != nil {
		point, _ := cfg.Topology.PointByName("store-down")
		st := &cfg.Topology.Nodes[p.store]
		back.Store = &storeGate{dec: dec, act: act, service: p.service, store: p.store, point: point, tick: o.Tick,
			restart: st.RestartAfter, preempt: st.PreemptFor, timeout: p.checked.StoreTimeout, done: done}
	}
	if p.lease != nil { // a lost call is given up after the call timeout, as the simulator's service does
		back.LostWait = time.Duration(p.lease.CallTimeout) * o.Tick
	}
	var restarter *restartHost
	if o.Target != "" { // the user's service: no crash oracle, identities inferred
		back.Crash, back.Infer = nil, inferCall(dec, cfg.Ops, nil, act)
		if o.RestartCmd != "" {
			if restarter, err = newRestartHost(strings.TrimRight(o.Target, "/"), o.RestartCmd, cfg, p, o.Tick, dec, o.Log, done, cancelRun); err != nil {
				return nil, err
			}
			back.Infer, back.Points = inferCall(dec, cfg.Ops, restarter.Recovering, act), restarter
		}
	}
	var backHandler http.Handler = back
	var intent *intentRun
	reconcilerURL := ""
	if p.intent != nil { // the call deadline on this link, and the reconciler
		if intent, reconcilerURL, err = startIntent(p, dec, back, gatewayURL, sup.Target, o.Tick, done, &cleanups); err != nil {
			return nil, err
		}
		backHandler = intent.calls
		fmt.Fprintf(o.Log, "live: reconciler listening on %s\n", reconcilerURL)
	}
	var watch *chargeWatch
	if o.Target != "" {
		watch = &chargeWatch{log: o.Stderr, done: done}
		backHandler = watch.wrap(backHandler)
	}
	backURL, err := serveAt(o.ProviderAddr, backHandler, &cleanups)
	if err != nil {
		return nil, err
	}
	if restarter != nil {
		restarter.setProvider(backURL)
	}
	fmt.Fprintf(o.Log, "live: fault layer service→gateway listening on %s\n", backURL)
	if watch != nil {
		watch.provider = backURL
	}
	if ev := o.Evidence; ev != nil {
		*ev = evidence(o, p, backURL)
	}
	svc := p.serviceRole
	spec := &cfg.Topology.Nodes[p.service]
	sup.config = ServiceConfig{
		DSN: dsn, Gateway: backURL, Semantics: cfg.Semantics.Alias(),
		Durable:   len(spec.Tables) == 0 || spec.Tables[0].Durable,
		MarkAfter: svc.MarkAfter, NoLock: p.noLock, Reuse: svc.Reuse,
		TTLMs:     (time.Duration(svc.TTL) * o.Tick).Milliseconds(),
		Crashable: spec.Crashable && (spec.CrashProbability > 0 || spec.PauseProbability > 0 || scripted(o.Chooser)),
		TimeoutMs: gatewayCallTimeout.Milliseconds(),
		LeaseMs:   leaseTimeout.Milliseconds(),
	}
	if c := p.checked; c != nil {
		sup.config.Checked, sup.config.FailOpen = true, c.FailOpen
		sup.config.StoreTimeoutMs = (time.Duration(c.StoreTimeout) * o.Tick).Milliseconds()
		if c.StoreTimeout > 0 && sup.config.StoreTimeoutMs == 0 {
			sup.config.StoreTimeoutMs = 1
		}
	}
	if l := p.lease; l != nil {
		// Keys in the database; the lease in the scenario's milliseconds,
		// compared with the virtual arrival times the fault layer sends.
		sup.config.Durable, sup.config.LeaseService, sup.config.LeaseMs = true, true, int64(l.Lease)
	}
	if p.intent != nil {
		sup.config.Intent, sup.config.NewKey, sup.config.Reconciler = true, p.intent.NewKey, reconcilerURL
		// A call waits for its deadline, on the run's clock, however long.
		sup.config.TimeoutMs = max(sup.config.TimeoutMs, (time.Duration(p.intent.CallTimeout)*o.Tick + 10*time.Second).Milliseconds())
	}
	p.configureService(&sup.config)
	if svc.TTL > 0 && sup.config.TTLMs == 0 {
		sup.config.TTLMs = 1
	}
	var host serviceHost = sup
	if o.Target != "" {
		host = fixedHost(strings.TrimRight(o.Target, "/"))
	}
	if restarter != nil {
		host = restarter
	}
	cleanups = append(cleanups, host.stop) // runs after done is closed (cleanups run in reverse)
	cleanups = append(cleanups, stopAll)
	if err := host.start(); err != nil {
		return nil, err
	}
	front := &Proxy{Decider: dec, Tick: o.Tick, Client: relay, Done: done, Target: host.Target, Act: act, Inside: true,
		Answers: len(cfg.Observe.InProgress) > 0,
		Routes:  map[string]route{PathPayments: {from: p.client, to: p.service, req: p.pay, resp: p.payResponse, payment: true}}}
	if restarter != nil {
		front.Points = restarter
	}
	if watch != nil {
		front.Target = func() string { watch.payment(); return host.Target() }
	}
	var targetErr error
	var targetMu sync.Mutex
	if o.Target != "" {
		front.Fail = func(err error) {
			targetMu.Lock()
			if targetErr == nil {
				targetErr = err
			}
			targetMu.Unlock()
			cancelRun()
		}
		front.FailRefused = restarter == nil // a restarted service is down for a while, by design
		front.Provider = backURL
	}
	frontURL, err := serve(front, &cleanups)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "live: fault layer client→service listening on %s\n", frontURL)

	lost := watchDatabase(runCtx, db, cancelRun)
	dec.Begin()
	cl := p.clientRole
	client := &Client{URL: frontURL, Semantics: cfg.Semantics, Ops: cfg.Ops,
		Interval: time.Duration(cl.Interval) * o.Tick, Timeout: time.Duration(cl.Timeout) * o.Tick,
		MaxAttempts: cl.MaxAttempts, KeyPerTry: cl.KeyPerTry, ReuseFirst: cl.ReuseFirst, Clicks: cl.Clicks,
		HTTP: &http.Client{Transport: transport, CheckRedirect: noRedirect}, Decider: dec, Node: p.client}
	p.configureClient(client)
	if o.Target != "" {
		var b [4]byte
		rand.Read(b[:])
		client.KeyPrefix = "run-" + hex.EncodeToString(b[:]) + "-"
	}
	client.Run(runCtx)
	finished := waitQuiet(runCtx, func() bool { return front.Idle() && back.Idle() && host.Settled() && intent.idle() })
	if watch != nil {
		watch.check() // the run is over before noChargeAfter: say it now
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("live: interrupted: %w", ctx.Err())
	}
	if err := lost(); err != nil {
		return nil, err
	}
	targetMu.Lock()
	err = targetErr
	targetMu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := host.Err(); err != nil {
		return nil, err
	}
	if intent != nil {
		if err := intent.rec.Err(); err != nil {
			return nil, err
		}
	}
	stopAll()
	host.stop()

	readCtx, cancelRead := context.WithTimeout(context.Background(), lostAfter)
	defer cancelRead()
	effects, err := db.Effects(readCtx)
	if err != nil {
		if perr := db.PingContext(readCtx); perr != nil { // gone before the watcher's lostAfter: a quick run
			return nil, errLostDatabase(firstLine(perr))
		}
		return nil, err
	}
	sink := sim.SinkID(0)
	if len(cfg.Observe.Sinks) > 0 {
		sink = cfg.Observe.Sinks[0]
	}
	for op := 1; op <= cfg.Ops; op++ {
		for _, txn := range effects[int32(op)] {
			dec.Record(sim.Event{Kind: sim.EvEffect, Node: p.gateway, Peer: sim.NoNode, Label: uint16(sink),
				Msg: sim.Message{Op: sim.OpID(op), Value: txn}})
		}
	}
	if p.checked == nil && p.lease == nil && sup.config.Durable && o.Target == "" {
		if err := replayKeyHistory(readCtx, db, dec, cfg.Topology, p.service); err != nil {
			return nil, err
		}
	}
	if p.intent != nil {
		if err := replayIntentHistory(readCtx, db, dec, cfg.Topology, p.service); err != nil {
			return nil, err
		}
		inTimeOrder(o.Trace)
	}
	return outcome(cfg, rec, finished, dec.Elapsed(), o.Tick), nil
}

// noRedirect is the CheckRedirect of every client that may talk to the
// user's service: the redirect's answer is returned, not followed.
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// scripted reports whether ch replays a plan: a plan may name a crash even
// where the profile gives crashes no probability.
func scripted(ch sim.Chooser) bool {
	if r, ok := ch.(*sim.Recording); ok {
		ch = r.Inner
	}
	_, ok := ch.(*sim.Scripted)
	return ok
}

// evidence is where the run ran, for its report: once's own service or
// yours, the provider's URL (your service's; once's own is internal) and
// mode, the restart command, the database.
func evidence(o Options, p *parts, provider string) report.LiveDoc {
	ev := report.LiveDoc{Mode: "service", ProviderMode: p.gatewayRole.Mode, Database: "sqlite"}
	if o.DSN != "" {
		ev.Database = "postgres"
	}
	if o.Target != "" {
		ev.Mode, ev.Target, ev.Provider, ev.RestartCmd = "target", MaskURL(o.Target), provider, o.RestartCmd
	}
	return ev
}

// outcome folds the checker's tallies into the simulator's Outcome.
func outcome(cfg *sim.Config, rec *counter, finished bool, elapsed, tick time.Duration) *sim.Outcome {
	return rec.checker.Outcome(sim.ExternalRun{Semantics: cfg.Semantics, Finished: finished, Events: rec.n, EndTime: sim.Time(elapsed / tick),
		Digest: rec.digest, Invariants: rec.invs, Metrics: rec.metrics})
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
	return serveAt("", h, cleanups)
}

// serveAt is serve on addr ("" = a free port of 127.0.0.1).
func serveAt(addr string, h http.Handler, cleanups *[]func()) (string, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("live: listen on %s: %w", addr, err)
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

// pointOracle answers the service's question at a crash point: "kill" or
// "go-on", decided by the Decider under the simulator's identity. A pause
// is SIGSTOP of the service process for the pause time, then SIGCONT: the
// process keeps its memory and every connection, as the simulator's
// paused node keeps its state; the answer comes after the resume.
type pointOracle struct {
	dec  *Decider
	topo *sim.Topology
	node sim.NodeID
	sup  *supervisor
	tick time.Duration
	done <-chan struct{}
}

func (o *pointOracle) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	point, ok1 := o.topo.PointByName(q.Get("point"))
	msg, ok2 := o.topo.MessageByName(q.Get("msg"))
	op, err1 := strconv.ParseInt(q.Get("op"), 10, 32)
	attempt, err2 := strconv.ParseInt(q.Get("attempt"), 10, 32)
	if !ok1 || !ok2 || err1 != nil || err2 != nil {
		http.Error(w, "bad crash point", http.StatusBadRequest)
		return
	}
	m := sim.Message{To: o.node, Kind: msg, Op: sim.OpID(op), Attempt: int32(attempt)}
	crash, pause := o.dec.Point(o.node, point, m)
	if crash {
		o.sup.crashing()
		io.WriteString(w, oracleKill)
		return
	}
	if pause > 0 {
		o.sup.freeze(time.Duration(pause)*o.tick, o.done)
		o.dec.Record(sim.Event{Kind: sim.EvResume, Node: o.node, Peer: sim.NoNode})
	}
	io.WriteString(w, oracleGoOn)
}
