package brokers

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/scenarios/roles/queue"
	"github.com/oncesim/once/sim"
)

// streamDriver runs redis-streams-autoclaim on a real Redis stream: the
// producer (in once) appends one entry per operation with XADD; each
// stream-consumer is a process of its own that reads with XREADGROUP
// (NOACK under at-most-once, BLOCK the scenario's block), inserts its
// billing row in the ledger, XACKs, and — when a read comes back empty —
// runs XAUTOCLAIM with the scenario's min-idle-time, reading a claimed
// entry's delivery count from XPENDING. Where the simulator crashes a
// consumer (after-effect: after the row, before XACK; after-commit under
// at-most-once: after the NOACK read, before the row) the driver kills
// the process with SIGKILL and starts it again, under the same consumer
// name, after the scenario's restart delay. Redis never delivers the
// pending entry again by itself: a consumer's XAUTOCLAIM does.
type streamDriver struct {
	producer, stream, db sim.NodeID
	consumers            []sim.NodeID
	interval, block      sim.Time
	minIdle              sim.Time
	restart              []sim.Time
	publish              sim.MsgKind
	dbName               string
}

func newStreamDriver(cfg *sim.Config) *streamDriver {
	d := &streamDriver{}
	found := 0
	for i, n := range cfg.Nodes {
		switch r := n.(type) {
		case *queue.Producer:
			d.producer, d.interval = sim.NodeID(i), r.Interval
			found |= 1
		case *queue.RedisStream:
			d.stream, d.block = sim.NodeID(i), r.Block
			found |= 2
		case *queue.StreamConsumer:
			d.consumers = append(d.consumers, sim.NodeID(i))
			d.restart = append(d.restart, cfg.Topology.Nodes[i].RestartAfter)
			d.minIdle, d.db = r.MinIdle, r.DB
			found |= 4
		}
	}
	if found != 7 {
		return nil
	}
	d.dbName = cfg.Topology.NodeName(d.db)
	var ok bool
	if d.publish, ok = cfg.Topology.MessageByName("publish"); !ok {
		return nil
	}
	return d
}

func (d *streamDriver) variants(sim.Semantics) []string { return nil }

func (d *streamDriver) effectNode() string { return d.dbName }

// applies: the consumers' crash (SIGKILL) only; every link of the
// scenario is reliable.
func (d *streamDriver) applies() []sim.FaultKind { return []sim.FaultKind{sim.FaultCrash} }

// streamGroup is the consumer group's name on every run's stream.
const streamGroup = "billing"

// streamRun is one run's state on the driver's side.
type streamRun struct {
	d       *streamDriver
	e       *env
	mu      sync.Mutex
	settled map[int]bool // op → its entry acked (or, at most once, billed or lost)
	added   int          // entries appended
	done    chan struct{}
	once    sync.Once
}

func (d *streamDriver) run(ctx context.Context, e *env) (bool, error) {
	if err := createLedger(e.dir); err != nil {
		return false, err
	}
	opt, err := redis.ParseURL(e.url)
	if err != nil {
		return false, fmt.Errorf("brokers: redis: %w", err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	stream := e.prefix + ":stream"
	if err := rdb.XGroupCreateMkStream(ctx, stream, streamGroup, "$").Err(); err != nil {
		return false, fmt.Errorf("brokers: redis: XGROUP CREATE %s %s $ MKSTREAM: %w", stream, streamGroup, err)
	}
	defer rdb.Del(context.Background(), stream) // runs share one server
	amo := e.cfg.Semantics == sim.AtMostOnce
	e.say("stream %s, consumer group %s of %d consumers (processes): XREADGROUP COUNT 1 BLOCK %d%s, the billing row in SQLite%s, then XACK; an empty read runs XAUTOCLAIM %s %s NAME %d 0-0 COUNT 1",
		stream, streamGroup, len(d.consumers), d.block, map[bool]string{true: " NOACK", false: ""}[amo],
		map[bool]string{true: " with its dedup row in one transaction", false: ""}[e.cfg.Semantics == sim.Idempotent], stream, streamGroup, d.minIdle)
	e.say("faults applied: the consumers' %s (SIGKILL at %s, restarted after %d ms under the same consumer name); every link of the scenario is reliable",
		sim.FaultKinds[sim.FaultCrash].Name, map[bool]string{true: "after-commit: after the NOACK read, before the row", false: "after-effect: after the row, before XACK"}[amo], d.restart[0])
	r := &streamRun{d: d, e: e, settled: map[int]bool{}, done: make(chan struct{})}
	topo := e.cfg.Topology
	start := func(i int) (*worker, error) {
		cfg := &workerConfig{Role: "redis-stream-consumer", Node: topo.NodeName(d.consumers[i]), URL: e.url, Ledger: ledgerPath(e.dir),
			Ops: e.cfg.Ops, Semantics: e.cfg.Semantics.Alias(), Queue: stream, Block: int64(d.block), MinIdle: int64(d.minIdle)}
		w, err := startWorker(e.o.Worker, e.o.WorkerEnv, cfg, e.evidence)
		if err != nil {
			return nil, err
		}
		if e.o.Verbose {
			e.say("%s is process %d", cfg.Node, w.proc.pid())
		}
		if s, err := next(ctx, w); err != nil {
			w.proc.kill()
			return nil, err
		} else if s.verb != "ready" {
			w.proc.kill()
			return nil, fmt.Errorf("brokers: %s said %q before it was ready", cfg.Node, s.verb)
		}
		return w, nil
	}
	ws := make([]*worker, len(d.consumers))
	var wsMu sync.Mutex
	defer func() { // on every path: stop every consumer process, reap it
		wsMu.Lock()
		defer wsMu.Unlock()
		for _, w := range ws {
			if w != nil {
				w.proc.stop(syscall.SIGTERM)
			}
		}
	}()
	for i := range d.consumers {
		if ws[i], err = start(i); err != nil {
			return false, err
		}
	}
	e.dec.Begin()
	// The model's consumers block in node order at the start (consumer-a
	// first), and the stream serves blocked readers first come first
	// served: so are the real ones started, each once the one before has
	// sent its first XREADGROUP (and 20 ms for it to reach Redis).
	for _, w := range ws {
		w.tell("start")
		if s, err := next(ctx, w); err != nil {
			return false, err
		} else if s.verb != "reading" {
			return false, fmt.Errorf("brokers: %s said %q before its first read", w.node, s.verb)
		}
		time.Sleep(20 * time.Millisecond)
	}
	errs := make(chan error, len(ws)+1)
	go func() { errs <- r.produce(ctx, rdb, stream) }()
	for i := range ws {
		go func() {
			for {
				wsMu.Lock()
				w := ws[i]
				wsMu.Unlock()
				crashed, err := r.follow(ctx, w, d.consumers[i])
				if err != nil || !crashed {
					errs <- err
					return
				}
				e.dec.Record(sim.Event{Kind: sim.EvRestart, Node: d.consumers[i], Peer: sim.NoNode})
				select {
				case <-time.After(time.Duration(d.restart[i]) * time.Millisecond):
				case <-ctx.Done():
					errs <- nil
					return
				}
				nw, err := start(i)
				if err != nil {
					errs <- err
					return
				}
				nw.tell("start")
				if s, err := next(ctx, nw); err != nil || s.verb != "reading" {
					errs <- fmt.Errorf("brokers: %s restarted: %q before its first read: %v", nw.node, s.verb, err)
					return
				}
				wsMu.Lock()
				ws[i] = nw
				wsMu.Unlock()
				e.say("%s restarted (pid %d), consumer name %s kept", w.node, nw.proc.pid(), w.node)
			}
		}()
	}
	var first error
	for range len(ws) + 1 {
		if err := <-errs; err != nil && first == nil {
			first = err
			r.finish() // the others stop too
		}
	}
	if first != nil {
		return false, first
	}
	if ctx.Err() != nil {
		return false, nil // cut by the deadline: unfinished
	}
	return true, nil
}

// produce appends operation 1..ops, one per interval, with XADD: the
// simulator's producer on a reliable link, acknowledged once.
func (r *streamRun) produce(ctx context.Context, rdb *redis.Client, stream string) error {
	d, e := r.d, r.e
	t0 := time.Now()
	for op := 1; op <= e.cfg.Ops; op++ {
		select {
		case <-time.After(time.Until(t0.Add(time.Duration(int64(op-1)*int64(d.interval)) * time.Millisecond))):
		case <-ctx.Done():
			return nil
		}
		m := sim.Message{Kind: d.publish, From: d.producer, To: d.stream, Op: sim.OpID(op), Attempt: 1}
		e.dec.Transmit(m) // a reliable link: no fault to draw, the send recorded
		id, err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: stream, Values: map[string]any{"op": op}}).Result()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("brokers: redis: XADD op-%d: %w", op, err)
		}
		e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.stream, Peer: d.producer, Msg: m})
		r.mu.Lock()
		r.added++
		r.mu.Unlock()
		if op == 1 || e.o.Verbose {
			e.say("XADD %s * op %d → %s", stream, op, id)
		}
	}
	r.check()
	return nil
}

// settle marks op's entry done with and ends the run when every one is.
func (r *streamRun) settle(op int) {
	r.mu.Lock()
	r.settled[op] = true
	r.mu.Unlock()
	r.check()
}

func (r *streamRun) check() {
	r.mu.Lock()
	all := r.added == r.e.cfg.Ops && len(r.settled) == r.e.cfg.Ops
	r.mu.Unlock()
	if all {
		r.finish()
	}
}

func (r *streamRun) finish() { r.once.Do(func() { close(r.done) }) }

// follow handles one consumer process's steps until the run is done
// (false) or the decider crashes it (true).
func (r *streamRun) follow(ctx context.Context, w *worker, id sim.NodeID) (crashed bool, err error) {
	d, e := r.d, r.e
	amo := e.cfg.Semantics == sim.AtMostOnce
	for {
		var s step
		select {
		case s = <-w.steps:
		case <-r.done:
			return false, nil
		case <-w.proc.exited():
			if ctx.Err() != nil {
				return false, nil
			}
			return false, fmt.Errorf("brokers: %s (pid %d) exited: %v", w.node, w.proc.pid(), w.proc.err)
		case <-ctx.Done():
			return false, nil
		}
		count := s.attempt // the entry's delivery count
		kind := queue.MsgDeliver
		if s.arg(1) == "claimed" {
			kind = queue.MsgXAutoClaimed
		}
		got := sim.Message{Kind: kind, From: d.stream, To: id, Op: sim.OpID(s.op), Attempt: int32(count)}
		switch s.verb {
		case "deliver":
			e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: id, Peer: d.stream, Msg: got})
			if kind == queue.MsgXAutoClaimed {
				e.say("%s: XAUTOCLAIM → entry %s (op-%d), pending and idle past min-idle-time %d ms; XPENDING says delivery count %d", w.node, s.arg(0), s.op, d.minIdle, count)
			}
		case "point":
			m := sim.Message{Kind: payments.MsgDBInserted, From: d.db, To: id, Op: sim.OpID(s.op), Attempt: int32(count)}
			point := queue.PointAfterEffect
			if amo {
				m, point = got, queue.PointAfterCommit
			}
			if crash, _ := e.dec.Point(id, point, m); crash {
				w.proc.kill()
				if amo {
					e.say("%s killed (SIGKILL, pid %d) after its NOACK read of op-%d, before the row: the entry is in no pending entries list, lost", w.node, w.proc.pid(), s.op)
					r.settle(s.op)
				} else {
					e.say("%s killed (SIGKILL, pid %d) after op-%d's row, before XACK: the entry stays pending, delivery count %d", w.node, w.proc.pid(), s.op, count)
				}
				return true, nil
			}
			w.tell("go %d %d", s.op, s.attempt)
		case "charged":
			if count > 1 {
				e.say("ledger: op-%d billed again by %s (delivery count %d)", s.op, w.node, count)
			}
			if amo {
				r.settle(s.op)
			}
		case "dedup":
			e.say("ledger: op-%d's row exists (INSERT … ON CONFLICT (op) DO NOTHING): %s inserts nothing and acks (delivery count %d)", s.op, w.node, count)
		case "acked":
			r.settle(s.op)
		}
	}
}

// runStreamConsumer is a stream-consumer process (WorkerMain): XREADGROUP
// (NOACK under at-most-once), the row, XACK; an empty read runs
// XAUTOCLAIM.
func runStreamConsumer(ctx context.Context, cfg *workerConfig, w *workerIO) error {
	rdb, db, err := redisWorker(ctx, cfg, w)
	if err != nil {
		return err
	}
	defer rdb.Close()
	defer db.Close()
	amo := cfg.Semantics == "amo"
	process := func(m redis.XMessage, count int, how string) error {
		op, err := strconv.Atoi(fmt.Sprint(m.Values["op"]))
		if err != nil {
			return fmt.Errorf("%s: entry %s is not an operation: %v", cfg.Node, m.ID, m.Values)
		}
		w.say("deliver", op, count, m.ID, how)
		if amo {
			w.point("after-commit", op, count)
			if err := charge(ctx, db, op, cfg.Node, count); err != nil {
				return err
			}
			w.say("charged", op, count)
			return nil
		}
		charged := true
		if cfg.Semantics == "alo" {
			err = charge(ctx, db, op, cfg.Node, count)
		} else {
			charged, err = chargeOnce(ctx, db, op, cfg.Node, count)
		}
		if err != nil {
			return err
		}
		if charged {
			w.say("charged", op, count)
		} else {
			w.say("dedup", op, count)
		}
		w.point("after-effect", op, count)
		if err := rdb.XAck(ctx, cfg.Queue, streamGroup, m.ID).Err(); err != nil {
			return fmt.Errorf("%s: XACK %s: %w", cfg.Node, m.ID, err)
		}
		w.say("acked", op, count)
		return nil
	}
	// At most once nothing is ever pending and nothing is claimed: the
	// read blocks until an entry comes (BLOCK 0), as the model's read
	// does while nothing is pending. A read that timed out would block
	// again behind the other consumer, and which consumer gets which
	// entry — the key of the crash decisions — would differ from the
	// model's first-come first-served order.
	block := time.Duration(cfg.Block) * time.Millisecond
	if amo {
		block = 0
	}
	w.say("reading", 0, 0)
	for {
		res, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: streamGroup, Consumer: cfg.Node, Streams: []string{cfg.Queue, ">"},
			Count: 1, Block: block, NoAck: amo}).Result()
		if err != nil && err != redis.Nil {
			return fmt.Errorf("%s: XREADGROUP: %w", cfg.Node, err)
		}
		if err == nil && len(res) > 0 && len(res[0].Messages) > 0 {
			if err := process(res[0].Messages[0], 1, "read"); err != nil {
				return err
			}
			continue
		}
		if amo {
			continue // nothing is ever pending
		}
		claimed, _, err := rdb.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: cfg.Queue, Group: streamGroup, Consumer: cfg.Node,
			MinIdle: time.Duration(cfg.MinIdle) * time.Millisecond, Start: "0-0", Count: 1}).Result()
		if err != nil {
			return fmt.Errorf("%s: XAUTOCLAIM: %w", cfg.Node, err)
		}
		if len(claimed) == 0 {
			continue
		}
		m := claimed[0]
		p, err := rdb.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: cfg.Queue, Group: streamGroup, Start: m.ID, End: m.ID, Count: 1}).Result()
		if err != nil || len(p) == 0 {
			return fmt.Errorf("%s: XPENDING %s after XAUTOCLAIM: %v", cfg.Node, m.ID, err)
		}
		if err := process(m, int(p[0].RetryCount), "claimed"); err != nil {
			return err
		}
	}
}
