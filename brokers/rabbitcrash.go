package brokers

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/scenarios/roles/queue"
	"github.com/oncesim/once/sim"
)

// crashDriver runs rabbitmq-broker-crash on a real RabbitMQ node that it
// kills (SIGKILL) and restarts on its directory where the simulator
// crashes the durable queue: the producer (in once) publishes each
// operation, persistent, to a durable queue of the run's own with
// publisher confirms, and publishes again when no confirm came within the
// scenario's timeout; the consumer (in once too: it never crashes) bills
// each delivery in the run's SQLite ledger and acks it (Qos 1, manual
// ack), after the scenario's link delay each way.
//
// At before-persist the driver kills the node instead of publishing (the
// message never reached its disk); at after-persist it kills it once the
// confirm came (the message is on disk) and drops the confirm. The
// producer runs on the scenario's clock: the node is down for the
// scenario's restart delay (2 s), however long the real restart takes
// (7–15 s, during which that clock stands still), so the publishes the
// model sends to the down broker, and their attempt numbers, are the
// same here; it resumes once the consumer is back (consumerBack). Under at-least-once and idempotent semantics only (the
// model's at-most-once consumer auto-acks, and a confirm to tell when a
// publish is on disk would change what RabbitMQ does with it).
type crashDriver struct {
	producer, broker, consumer  sim.NodeID
	interval, timeout, restart  sim.Time
	publishLink, consumerLink   sim.Time // one way: producer → broker, broker ↔ consumer
	skipRedelivered             bool
	publish, publishAck         sim.MsgKind
	deliver, commit             sim.MsgKind
	beforePersist, afterPersist sim.PointID
}

func newCrashDriver(cfg *sim.Config) *crashDriver {
	if cfg.Semantics == sim.AtMostOnce {
		return nil
	}
	t := cfg.Topology
	n := lookup(t)
	d := &crashDriver{}
	var p *queue.Producer
	var c *queue.DurableConsumer
	d.producer, p = nodeOf[*queue.Producer](n, cfg)
	d.broker, _ = nodeOf[*queue.DurableQueue](n, cfg)
	d.consumer, c = nodeOf[*queue.DurableConsumer](n, cfg)
	netw, ok := cfg.Network.(*network.Network)
	if !n.ok || !ok {
		return nil
	}
	d.interval, d.timeout, d.skipRedelivered = p.Interval, p.Timeout, c.SkipRedelivered
	d.restart = t.Nodes[d.broker].RestartAfter
	d.publishLink = netw.LinkAt(d.producer, d.broker).Delay
	d.consumerLink = netw.LinkAt(d.broker, d.consumer).Delay
	d.publish, d.publishAck, d.deliver, d.commit = n.msg("publish"), n.msg("publish-ack"), n.msg("deliver"), n.msg("commit")
	d.beforePersist, d.afterPersist = n.point("before-persist"), n.point("after-persist")
	if !n.ok {
		return nil
	}
	return d
}

func (d *crashDriver) variants(sim.Semantics) []string { return nil }

func (d *crashDriver) effectNode() string { return "consumer" }

// applies: the broker's crash, SIGKILL and a restart on its directory.
func (d *crashDriver) applies() []sim.FaultKind { return []sim.FaultKind{sim.FaultCrash} }

// msgID names one publish: its operation and attempt.
type msgID struct {
	op      int
	attempt int32
}

// crashRun is one run's state.
type crashRun struct {
	d  *crashDriver
	e  *env
	db *sql.DB

	mu         sync.Mutex
	up         chan struct{}  // closed while the broker is up
	gen        int            // the consumer's connections so far
	reached    int            // the last connection a delivery reached
	skip       map[msgID]int  // a publish the model never delivered before its crash: skipped on that connection
	stored     map[msgID]bool // publishes on the broker's disk
	acked      map[msgID]bool
	deliveries map[msgID]int
	pubDone    bool
	inflight   int // deliveries the consumer is handling
	crashes    int
}

func (d *crashDriver) run(ctx context.Context, e *env) (bool, error) {
	if e.srv == nil {
		return false, usage("rabbitmq-broker-crash kills and restarts the broker: give no --broker-url, once starts a server of its own")
	}
	db, err := openLedger(ledgerPath(e.dir))
	if err != nil {
		return false, err
	}
	defer db.Close()
	r := &crashRun{d: d, e: e, db: db, up: make(chan struct{}), skip: map[msgID]int{}, stored: map[msgID]bool{}, acked: map[msgID]bool{}, deliveries: map[msgID]int{}}
	close(r.up)
	conn, ch, err := r.producerChannel(ctx)
	if err != nil {
		return false, err
	}
	defer func() { conn.Close() }()
	if _, err := ch.QueueDeclare(e.prefix, true, false, false, false, nil); err != nil {
		return false, fmt.Errorf("brokers: rabbitmq: declare queue %s: %w", e.prefix, err)
	}
	defer func() { // the run's queue goes with it
		if c, err := amqp.Dial(e.url); err == nil {
			if ch, err := c.Channel(); err == nil {
				ch.QueueDelete(e.prefix, false, false, false)
			}
			c.Close()
		}
	}()
	e.say("queue %s (durable), persistent messages, publisher confirms (again after %d ms without one); consumer with manual ack, Qos 1, %d ms each way; redelivered=%s",
		e.prefix, d.timeout, d.consumerLink, map[bool]string{true: "skip", false: "process"}[d.skipRedelivered])
	e.say("faults applied: the broker's %s, SIGKILL at before-persist (the publish not sent) or after-persist (its confirm received, then dropped), restarted on its directory; the producer's clock stands still while the real restart outlasts the scenario's %d ms",
		sim.FaultKinds[sim.FaultCrash].Name, d.restart)
	// queue.declare-ok comes before Mnesia's log holds the declaration's
	// decision (up to 2 s: disk_log's write cache), and a SIGKILL in
	// between made Mnesia abort the declaration at the restart, the queue
	// gone (errQueueLost). The model's queue exists before the scenario
	// begins: so does this one, durably.
	if _, err := r.durable(ctx); err != nil {
		return false, err
	}
	consumed := make(chan error, 1)
	cctx, stopConsumer := context.WithCancel(ctx)
	defer stopConsumer()
	go func() { consumed <- r.consume(cctx) }()
	e.dec.Begin()
	if err := r.produce(ctx, &conn, &ch); err != nil {
		return false, err
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !r.over(ctx) {
		select {
		case err := <-consumed:
			return false, err
		case <-ctx.Done():
			return false, nil
		case <-tick.C:
		}
	}
	e.say("%d broker crash(es); every message on disk acked", r.crashes)
	return true, nil
}

// producerChannel dials the broker and opens a channel in confirm mode.
func (r *crashRun) producerChannel(ctx context.Context) (*amqp.Connection, *amqp.Channel, error) {
	conn, err := amqp.Dial(r.e.url)
	if err != nil {
		return nil, nil, fmt.Errorf("brokers: rabbitmq: %w", err)
	}
	ch, err := conn.Channel()
	if err == nil {
		err = ch.Confirm(false)
	}
	if err != nil {
		conn.Close()
		return nil, nil, fmt.Errorf("brokers: rabbitmq: %w", err)
	}
	return conn, ch, nil
}

// produce publishes every operation as the model's producer does, on the
// scenario's clock (see crashDriver).
func (r *crashRun) produce(ctx context.Context, conn **amqp.Connection, ch **amqp.Channel) error {
	e, d := r.e, r.d
	ms := func(t sim.Time) time.Duration { return time.Duration(t) * time.Millisecond }
	type due struct {
		at      time.Duration // on the scenario's clock
		op      int
		attempt int32
	}
	var q []due
	for op := 1; op <= e.cfg.Ops; op++ {
		q = append(q, due{ms(sim.Time(op-1) * d.interval), op, 1})
	}
	t0 := time.Now()
	var still time.Duration // how long the scenario's clock stood still
	now := func() time.Duration { return time.Since(t0) - still }
	downUntil := time.Duration(-1) // the scenario's time the broker restarts
	for len(q) > 0 {
		slices.SortStableFunc(q, func(a, b due) int { return cmp.Compare(a.at, b.at) })
		x := q[0]
		q = q[1:]
		if wait := x.at - now(); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return nil
			}
		}
		retry := due{x.at + ms(d.timeout), x.op, x.attempt + 1}
		m := sim.Message{Kind: d.publish, From: d.producer, To: d.broker, Op: sim.OpID(x.op), Attempt: x.attempt}
		arrives := x.at + ms(d.publishLink)
		if arrives < downUntil {
			e.say("op-%d publish %d: the broker is down (restarted at %s on the scenario's clock): lost, again after %d ms", x.op, x.attempt, downUntil, d.timeout)
			q = append(q, retry)
			continue
		}
		if e.dec.Crash(d.broker, d.beforePersist, m) {
			e.say("op-%d publish %d: the broker crashes before it is on disk: SIGKILL, the publish not sent", x.op, x.attempt)
		} else {
			id := msgID{x.op, x.attempt}
			headers := amqp.Table{"op": int64(x.op), "attempt": int64(x.attempt)}
			if stopped, err := publishConfirmed(ctx, *ch, e.prefix, x.op, headers); stopped || err != nil {
				return err
			}
			r.mu.Lock()
			r.stored[id] = true
			r.mu.Unlock()
			e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.broker, Peer: d.producer, Msg: m})
			if e.dec.Crash(d.broker, d.afterPersist, m) {
				r.mu.Lock()
				r.skip[id] = r.gen // the model's broker never delivered it before the crash
				r.mu.Unlock()
				e.say("op-%d publish %d is on disk (confirmed); the broker crashes before its confirm: SIGKILL, the confirm dropped", x.op, x.attempt)
			} else {
				am := sim.Message{Kind: d.publishAck, From: d.broker, To: d.producer, Op: m.Op, Attempt: m.Attempt}
				e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.producer, Peer: d.broker, Msg: am})
				continue
			}
		}
		q = append(q, retry)
		if err := r.crashAndRestart(ctx); err != nil {
			return err
		}
		e.dec.Record(sim.Event{Kind: sim.EvRestart, Node: d.broker, Peer: sim.NoNode})
		downUntil = arrives + ms(d.restart)
		still = time.Since(t0) - (downUntil - ms(d.publishLink)) // the clock resumes where the model's broker is back
		(*conn).Close()
		var err error
		if *conn, *ch, err = r.producerChannel(ctx); err != nil {
			return err
		}
	}
	r.mu.Lock()
	r.pubDone = true
	r.mu.Unlock()
	return nil
}

// crashAndRestart kills the broker and restarts it on its directory,
// returning once the run's durable queue is back. Before the kill it
// makes sure the queue's declaration is durable (durable; run waited
// for it before the scenario began, and each restart for the queue's
// recovery, so this normally waits for nothing). After the restart it
// waits up to 120 s for the queue: RabbitMQ answers before it has
// recovered every queue.
func (r *crashRun) crashAndRestart(ctx context.Context) error {
	e := r.e
	if waited, err := r.durable(ctx); err != nil {
		return err
	} else if waited >= 20*time.Millisecond {
		e.say("the kill waited %s (real time) for Mnesia's log to hold every decision", waited.Round(10*time.Millisecond))
	}
	r.mu.Lock()
	r.up = make(chan struct{})
	r.crashes++
	r.mu.Unlock()
	began := time.Now()
	if err := e.srv.CrashAndRestart(ctx, nil); err != nil {
		return err
	}
	if err := waitQueue(ctx, e.url, e.prefix, 120*time.Second); err != nil {
		mnesia := filepath.Join(e.srv.Dir, "mnesia")
		return fmt.Errorf("%w: %w (its name in Mnesia's files: %v); the broker's log ends: %s", errQueueLost, err, onDisk(mnesia, e.prefix), e.srv.logTail())
	}
	// The restarted node rewrites the queue's record (its recovery), in
	// the same kind of transaction as the declaration: the producer and
	// the consumer are held until that too is durable, so that the next
	// kill need not wait with them running.
	waited, err := r.durable(ctx)
	if err != nil {
		return err
	}
	e.say("broker restarted on its directory, queue %s back after %s (real time; its recovery durable in Mnesia's log %s later)",
		e.prefix, (time.Since(began) - waited).Round(100*time.Millisecond), waited.Round(10*time.Millisecond))
	r.mu.Lock()
	gen := r.gen
	close(r.up)
	r.mu.Unlock()
	return r.consumerBack(ctx, gen)
}

// consumerBack holds the producer (its clock standing still) until the
// consumer is back: connected again and reached by the queue's head, or
// the queue holds nothing to deliver. The model's broker sends the head
// of its queue to the consumer at the instant it restarts, and the
// delivery reaches the consumer and is billed even when the broker
// crashes again at that instant (a publish that reaches it as it
// restarts); on RabbitMQ the consumer's reconnect, consume and delivery
// take real time, in which the producer's next publish could otherwise
// kill the node first (alo seed 20's op-1, docs/broker-agreement.md).
func (r *crashRun) consumerBack(ctx context.Context, before int) error {
	for deadline := time.Now().Add(60 * time.Second); ; {
		r.mu.Lock()
		gen, reached := r.gen, r.reached
		r.mu.Unlock()
		if gen > before {
			if reached == gen {
				return nil
			}
			if n, err := r.ready(ctx); err == nil && n == 0 {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("brokers: rabbitmq: the consumer is not back 60 s after the broker's restart (connections %d, the last a delivery reached %d)", gen, reached)
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// durable waits, at most 30 s, until the run's queue is in Mnesia's
// files and every transaction in Mnesia's log has its decision there
// (undecided), and says how long it waited.
func (r *crashRun) durable(ctx context.Context) (time.Duration, error) {
	e := r.e
	mnesia := filepath.Join(e.srv.Dir, "mnesia")
	began := time.Now()
	for !onDisk(mnesia, e.prefix) || undecided(mnesia) > 0 {
		if time.Since(began) > 30*time.Second {
			return 0, fmt.Errorf("brokers: rabbitmq: queue %s is not durable in Mnesia's files under %s 30 s after its declare (its name there: %v, transactions without their decision: %d)",
				e.prefix, mnesia, onDisk(mnesia, e.prefix), undecided(mnesia))
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	return time.Since(began), nil
}

// errQueueLost is a run whose durable queue RabbitMQ did not bring back
// after a SIGKILL and restart. The driver kills only once the queue's
// declaration is decided in Mnesia's log (crashAndRestart), so this is
// not expected any more: before that check, 1 kill in 27 over 20 seeds
// lost the queue (seed 6: its commit record on disk, its decision not;
// the 26 other kills had every decision on disk), as did 2 of 20
// agreement seeds and CI; the model has no such loss.
var errQueueLost = errors.New("RabbitMQ lost the durable queue across a restart")

// waitQueue waits, at most limit, for the durable queue to be back after
// a restart: RabbitMQ answers before it has recovered every queue, and a
// 404 closes the channel, so each look takes a new one.
func waitQueue(ctx context.Context, url, name string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var err error
		if conn, derr := amqp.Dial(url); derr != nil {
			err = derr
		} else {
			var ch *amqp.Channel
			if ch, err = conn.Channel(); err == nil {
				_, err = ch.QueueDeclarePassive(name, true, false, false, false, nil)
			}
			conn.Close()
		}
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("brokers: rabbitmq: the durable queue %s is not back %s after the broker's restart: %w", name, limit, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// over says whether the producer is done, every message on disk acked
// and the queue empty: an ack written just before a SIGKILL may never
// have been read, and its message comes back after the restart (the
// broker is not killed once the producer is done).
func (r *crashRun) over(ctx context.Context) bool {
	r.mu.Lock()
	done := r.pubDone && r.inflight == 0
	for id := range r.stored {
		done = done && r.acked[id]
	}
	r.mu.Unlock()
	for look := 0; done && look < 2; look++ {
		n, err := r.ready(ctx)
		done = err == nil && n == 0
		if done && look == 0 {
			time.Sleep(100 * time.Millisecond)
		}
		r.mu.Lock()
		done = done && r.inflight == 0
		r.mu.Unlock()
	}
	return done
}

// ready is how many messages the queue holds that are not delivered.
func (r *crashRun) ready(ctx context.Context) (int, error) {
	conn, err := amqp.Dial(r.e.url)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		return 0, err
	}
	q, err := ch.QueueDeclarePassive(r.e.prefix, true, false, false, false, nil)
	return q.Messages, err
}

// consume is the consumer: one connection per broker incarnation, Qos 1,
// manual ack; it bills each delivery as the model's consumer does.
func (r *crashRun) consume(ctx context.Context) error {
	for ctx.Err() == nil {
		r.mu.Lock()
		up := r.up
		r.mu.Unlock()
		select {
		case <-up:
		case <-ctx.Done():
			return nil
		}
		conn, err := amqp.Dial(r.e.url)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		ch, err := conn.Channel()
		if err == nil {
			err = ch.Qos(1, 0, false)
		}
		var deliveries <-chan amqp.Delivery
		if err == nil {
			deliveries, err = ch.ConsumeWithContext(ctx, r.e.prefix, "consumer", false, false, false, false, nil)
		}
		if err != nil {
			conn.Close()
			time.Sleep(100 * time.Millisecond)
			continue
		}
		r.mu.Lock()
		r.gen++
		gen := r.gen
		r.mu.Unlock()
		for dv := range deliveries {
			if err := r.handle(ctx, dv, gen); err != nil {
				conn.Close()
				return err
			}
		}
		conn.Close()
	}
	return nil
}

// handle bills one delivery and acks it, each after the scenario's link
// delay; an ack on a connection that died with the broker is lost, as
// the model's commit to a down broker is.
func (r *crashRun) handle(ctx context.Context, dv amqp.Delivery, gen int) error {
	d, e := r.d, r.e
	op, _ := dv.Headers["op"].(int64)
	attempt, _ := dv.Headers["attempt"].(int64)
	id := msgID{int(op), int32(attempt)}
	r.mu.Lock()
	r.reached = gen
	if g, ok := r.skip[id]; ok && g == gen {
		r.mu.Unlock()
		e.say("op-%d publish %d delivered before the crash at after-persist: not in the model (its broker crashed before delivering it), left unprocessed", op, attempt)
		return nil
	}
	r.deliveries[id]++
	n := r.deliveries[id]
	r.inflight++
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inflight--
		r.mu.Unlock()
	}()
	time.Sleep(time.Duration(d.consumerLink) * time.Millisecond)
	m := sim.Message{Kind: d.deliver, From: d.broker, To: d.consumer, Op: sim.OpID(op), Attempt: int32(n)}
	e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.consumer, Peer: d.broker, Msg: m})
	if dv.Redelivered {
		e.say("op-%d publish %d delivered with Redelivered=true (delivery %d)", op, attempt, n)
	}
	switch {
	case e.cfg.Semantics == sim.Idempotent:
		if billed, err := chargeOnce(ctx, r.db, int(op), "consumer", n); err != nil {
			return err
		} else if !billed {
			e.say("op-%d found in the dedup table: acked, not billed", op)
		}
	case d.skipRedelivered && dv.Redelivered:
		e.say("op-%d: Redelivered=true read as \"processed before\": acked, not billed", op)
	default:
		if err := charge(ctx, r.db, int(op), "consumer", n); err != nil {
			return err
		}
	}
	time.Sleep(time.Duration(d.consumerLink) * time.Millisecond)
	if err := dv.Ack(false); err != nil {
		e.say("op-%d: the ack is lost with the broker's connection (%v)", op, err)
		return nil
	}
	r.mu.Lock()
	r.acked[id] = true
	r.mu.Unlock()
	e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.broker, Peer: d.consumer, Msg: sim.Message{Kind: d.commit, From: d.consumer, To: d.broker, Op: sim.OpID(op), Attempt: int32(n)}})
	return nil
}
