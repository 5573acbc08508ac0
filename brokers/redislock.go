package brokers

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// lockDriver runs redis-lock-expiry's job runners on a real Redis: each
// locked-worker is a process of its own that takes the job's lock with
// SET lock:K NODE NX PX ttl (Redis answers OK or nil, no token), a
// fencing token from the ledger's counter (a SQLite sequence: never from
// Redis), and writes the job to the ledger with it. Where the simulator
// pauses a worker after its lock (the point after-lock), the driver stops
// the worker process with SIGSTOP for the pause and continues it with
// SIGCONT: a real zombie holder, whose lock Redis expired meanwhile.
type lockDriver struct {
	workers  []sim.NodeID
	store    sim.NodeID
	tokens   sim.NodeID
	ledger   string
	fencing  bool
	ttl      sim.Time
	interval sim.Time
	retry    sim.Time
	getKind  sim.MsgKind
	tokenOK  sim.MsgKind
	point    sim.PointID
}

func newLockDriver(cfg *sim.Config) *lockDriver {
	d := &lockDriver{}
	for i, n := range cfg.Nodes {
		switch r := n.(type) {
		case *payments.LockedWorker:
			if r.NoLock {
				return nil
			}
			d.workers = append(d.workers, sim.NodeID(i))
			d.store, d.tokens, d.ttl, d.interval, d.retry = r.Store, r.Tokens, r.TTL, r.Interval, r.Retry
		case *payments.FencedLedger:
			d.ledger, d.fencing = cfg.Topology.NodeName(sim.NodeID(i)), r.Fencing
		}
	}
	if len(d.workers) == 0 || d.ledger == "" {
		return nil
	}
	n := lookup(cfg.Topology)
	d.getKind, d.tokenOK = n.msg("db-get"), n.msg("db-next-token-result")
	d.point = n.point("after-lock")
	if !n.ok {
		return nil
	}
	return d
}

// linkScale multiplies the scenario's lock store and token links in a
// worker: the simulator's 1 ms and 2 ms links order worker-a before
// worker-b, and a loaded machine's process scheduling jitters by more
// than a millisecond. The ledger's link (5 ms for both workers) is not
// scaled: ×10 a job took 160 ms, longer than the 100 ms between jobs,
// and a worker paused holding job 2's lock kept its job 1 from writing —
// a schedule the simulator does not have (the broker agreement report
// found it: redis-lock-expiry seed 1).
const linkScale = 10

func (d *lockDriver) variants(sim.Semantics) []string { return nil }
func (d *lockDriver) effectNode() string              { return d.ledger }

// applies: the holder's pause (SIGSTOP past the lock's PX) only.
func (d *lockDriver) applies() []sim.FaultKind { return []sim.FaultKind{sim.FaultPause} }

// lockRun is one run's state on the driver's side.
type lockRun struct {
	d       *lockDriver
	e       *env
	mu      sync.Mutex
	holders map[int][]string // job → nodes granted its lock, in order
	written map[int]bool     // job → a write was applied
	tokenOf map[string]int64 // "node op" → its token
	pauses  sync.WaitGroup
}

func (d *lockDriver) run(ctx context.Context, e *env) (bool, error) {
	r := &lockRun{d: d, e: e, holders: map[int][]string{}, written: map[int]bool{}, tokenOf: map[string]int64{}}
	if err := createLedger(e.dir); err != nil {
		return false, err
	}
	topo := e.cfg.Topology
	ws := make([]*worker, 0, len(d.workers))
	defer func() { // on every path: continue a stopped worker, kill every one, reap it
		for _, w := range ws {
			_ = w.signal(syscall.SIGCONT)
			w.proc.kill()
		}
		r.pauses.Wait()
	}()
	e.say("SET %s:lock:K NODE NX PX %d answers OK or nil: no fencing token; the token comes from the ledger's SQLite counter", e.prefix, d.ttl)
	netw := e.cfg.Network.(*network.Network)
	rtt := func(a, b sim.NodeID) int64 { return linkScale * int64(netw.LinkAt(a, b).Delay+netw.LinkAt(b, a).Delay) }
	ledger, _ := topo.NodeByName(d.ledger)
	e.say("the lock store's and the token counter's link delays are scaled ×%d (a round trip of the scenario's 1 ms link waits %d ms) so the order of the simulator's links survives a loaded machine's scheduling; the ledger's are not (the same for both workers, scaled they would outlast the %d ms between jobs)", linkScale, 2*linkScale, d.interval)
	for _, id := range d.workers {
		cfg := &workerConfig{Role: "redis-lock", Node: topo.NodeName(id), URL: e.url, Ledger: ledgerPath(e.dir), Ops: e.cfg.Ops,
			Interval: int64(d.interval), TTL: int64(d.ttl), Retry: int64(d.retry), Fencing: d.fencing, Queue: e.prefix,
			StoreRTT: rtt(id, d.store), TokensRTT: rtt(id, d.tokens), LedgerRTT: rtt(id, ledger) / linkScale}
		w, err := startWorker(e.o.Worker, e.o.WorkerEnv, cfg, e.evidence)
		if err != nil {
			return false, err
		}
		ws = append(ws, w)
		if e.o.Verbose {
			e.say("%s is process %d", cfg.Node, w.proc.pid())
		}
	}
	for _, w := range ws { // every worker connected before the schedule starts
		if s, err := next(ctx, w); err != nil {
			return false, err
		} else if s.verb != "ready" {
			return false, fmt.Errorf("brokers: %s said %q before it was ready", w.node, s.verb)
		}
	}
	e.dec.Begin()
	for _, w := range ws {
		w.tell("start")
	}
	errs := make(chan error, len(ws))
	for i, w := range ws {
		go func() { errs <- r.follow(ctx, w, d.workers[i]) }()
	}
	var first error
	for range ws {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if ctx.Err() != nil {
		return false, nil // cut by the deadline: unfinished
	}
	return first == nil, first
}

// next is the worker's next step; an error when it exits or ctx ends.
func next(ctx context.Context, w *worker) (step, error) {
	select {
	case s := <-w.steps:
		return s, nil
	case <-w.proc.exited():
		select {
		case s := <-w.steps:
			return s, nil
		default:
		}
		return step{}, fmt.Errorf("brokers: %s exited: %v", w.node, w.proc.err)
	case <-ctx.Done():
		return step{}, ctx.Err()
	}
}

// follow handles one worker's steps until it says exit.
func (r *lockRun) follow(ctx context.Context, w *worker, id sim.NodeID) error {
	d, e := r.d, r.e
	for {
		s, err := next(ctx, w)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		m := sim.Message{Kind: d.getKind, From: id, To: d.store, Op: sim.OpID(s.op), Attempt: int32(s.attempt)}
		switch s.verb {
		case "exit":
			return nil
		case "get":
			e.dec.Record(sim.Event{Kind: sim.EvSend, Node: id, Peer: d.store, Msg: m})
			e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.store, Peer: id, Msg: m})
		case "lock":
			if s.arg(0) != "OK" {
				continue
			}
			r.mu.Lock()
			r.holders[s.op] = append(r.holders[s.op], w.node)
			hs, done := r.holders[s.op], r.written[s.op]
			r.mu.Unlock()
			e.say("%s: SET %s:lock:%d %s NX PX %d → OK (attempt %d)", w.node, e.prefix, s.op, w.node, d.ttl, s.attempt)
			if len(hs) > 1 && !done {
				e.say("two holders of lock job %d: %s still believes it holds it, and Redis granted it to %s after its PX %d ms expired",
					s.op, hs[len(hs)-2], w.node, d.ttl)
			}
		case "token":
			n, _ := strconv.ParseInt(s.arg(0), 10, 64)
			r.mu.Lock()
			r.tokenOf[fmt.Sprint(w.node, s.op)] = n
			r.mu.Unlock()
		case "point":
			r.point(ctx, w, id, s)
		case "write":
			if s.arg(1) == "applied" {
				r.mu.Lock()
				r.written[s.op] = true
				r.mu.Unlock()
				e.say("ledger: job %d written by %s with fencing token %s", s.op, w.node, s.arg(0))
			} else {
				e.say("ledger: job %d: %s's write with token %s refused (fencing: a higher token was seen)", s.op, w.node, s.arg(0))
			}
		}
	}
}

// point asks the decider what happens to the worker after its lock and
// token: a pause is a real one (SIGSTOP, then SIGCONT after the pause).
func (r *lockRun) point(ctx context.Context, w *worker, id sim.NodeID, s step) {
	d, e := r.d, r.e
	m := sim.Message{Kind: d.tokenOK, From: d.tokens, To: id, Op: sim.OpID(s.op), Attempt: int32(s.attempt)}
	crash, pause := e.dec.Point(id, d.point, m)
	switch {
	case crash: // the scenario's workers do not crash; a plan may still say so
		e.say("%s killed (SIGKILL, pid %d) at after-lock, job %d", w.node, w.proc.pid(), s.op)
		w.proc.kill()
		return
	case pause > 0:
		r.mu.Lock()
		token := r.tokenOf[fmt.Sprint(w.node, s.op)]
		r.mu.Unlock()
		if err := w.stop(); err != nil {
			e.say("%s: SIGSTOP: %v", w.node, err)
		}
		e.say("%s stopped (SIGSTOP, pid %d) for %d ms holding lock job %d with token %d; the lock's PX is %d ms",
			w.node, w.proc.pid(), pause, s.op, token, d.ttl)
		w.tell("go %d %d", s.op, s.attempt) // read when it runs again
		r.pauses.Add(1)
		go func() {
			defer r.pauses.Done()
			select {
			case <-time.After(time.Duration(pause) * time.Millisecond):
			case <-ctx.Done():
			}
			_ = w.signal(syscall.SIGCONT)
			e.dec.Record(sim.Event{Kind: sim.EvResume, Node: id, Peer: sim.NoNode})
			e.say("%s continued (SIGCONT): it still believes it holds lock job %d", w.node, s.op)
		}()
	default:
		w.tell("go %d %d", s.op, s.attempt)
	}
}

// runLockWorker is one locked-worker process (WorkerMain).
func runLockWorker(ctx context.Context, cfg *workerConfig, w *workerIO) error {
	rdb, db, err := redisWorker(ctx, cfg, w)
	if err != nil {
		return err
	}
	defer rdb.Close()
	defer db.Close()
	t0 := time.Now()
	var wg sync.WaitGroup
	var ledgerMu sync.Mutex
	errs := make(chan error, cfg.Ops)
	for op := 1; op <= cfg.Ops; op++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Until(t0.Add(time.Duration(int64(op-1)*cfg.Interval) * time.Millisecond)))
			if err := lockJob(ctx, cfg, w, rdb, db, &ledgerMu, op); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	w.say("exit", 0, 0)
	return nil
}

// lockJob runs job op as the simulator's LockedWorker does: GET done:K;
// SET lock:K NX PX ttl (nil: ask again after retry); the next fencing
// token; the point after-lock; the ledger write; SET done:K DONE.
//
// The ledger and its token counter stand for services of their own, but
// here they are a SQLite file the workers share, and a process stopped
// inside a SQLite write transaction would block every other worker's
// ledger until it continues: a stall the simulator's separate nodes do
// not have (CI saw it turn a fenced run into a violated one). So a
// worker's jobs take ledgerMu around each ledger call and hold it while
// the driver decides at the point after-lock, where a SIGSTOP can come:
// a stopped worker is never inside a ledger transaction.
func lockJob(ctx context.Context, cfg *workerConfig, w *workerIO, rdb *redis.Client, db *sql.DB, ledgerMu *sync.Mutex, op int) error {
	lock := fmt.Sprintf("%s:lock:%d", cfg.Queue, op)
	done := fmt.Sprintf("%s:done:%d", cfg.Queue, op)
	for attempt := 1; ; attempt++ {
		w.say("get", op, attempt)
		wait(cfg.StoreRTT)
		v, err := rdb.Get(ctx, done).Result()
		if err != nil && err != redis.Nil {
			return fmt.Errorf("%s: GET %s: %w", cfg.Node, done, err)
		}
		if v == "DONE" {
			w.say("skip", op, attempt)
			return nil
		}
		wait(cfg.StoreRTT)
		err = rdb.SetArgs(ctx, lock, cfg.Node, redis.SetArgs{Mode: "NX", TTL: time.Duration(cfg.TTL) * time.Millisecond}).Err()
		if err == redis.Nil {
			w.say("lock", op, attempt, "nil")
			time.Sleep(time.Duration(cfg.Retry) * time.Millisecond)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: SET %s NX PX: %w", cfg.Node, lock, err)
		}
		w.say("lock", op, attempt, "OK")
		wait(cfg.TokensRTT)
		ledgerMu.Lock()
		token, err := nextToken(ctx, db)
		if err != nil {
			ledgerMu.Unlock()
			return err
		}
		w.say("token", op, attempt, token)
		w.point("after-lock", op, attempt) // a SIGSTOP comes here, if any
		ledgerMu.Unlock()
		wait(cfg.LedgerRTT)
		ledgerMu.Lock()
		applied, err := writeFenced(ctx, db, op, cfg.Node, token, cfg.Fencing)
		ledgerMu.Unlock()
		if err != nil {
			return err
		}
		if !applied {
			w.say("write", op, attempt, token, "fenced")
			return nil
		}
		w.say("write", op, attempt, token, "applied")
		wait(cfg.StoreRTT)
		if err := rdb.Set(ctx, done, "DONE", 0).Err(); err != nil {
			return fmt.Errorf("%s: SET %s DONE: %w", cfg.Node, done, err)
		}
		return nil
	}
}

// wait sleeps ms milliseconds: a link's round trip.
func wait(ms int64) { time.Sleep(time.Duration(ms) * time.Millisecond) }
