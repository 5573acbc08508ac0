package brokers

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/oncesim/once/scenarios/roles/queue"
	"github.com/oncesim/once/sim"
)

// consumerDriver runs idempotent-consumer-dedup's producer and consumer
// on a real RabbitMQ: the producer (in once) publishes each operation to a
// durable queue of the run's own, persistent, with publisher confirms;
// the consumer is a process of its own with a manual-ack channel (Qos 1).
// Where the simulator crashes the consumer after its charge and before
// its ack (the point after-charge; after-commit under at-most-once), the
// driver kills the process (SIGKILL): its connection dies, RabbitMQ puts
// the unacked message back, and the consumer restarted after the
// scenario's restart delay gets it again with Redelivered=true.
//
// Its variants: at-most-once acks before the charge (ack-before-effect,
// the model's broker with amo-delivery prefetch-1: a record published
// while the consumer is down waits in the queue);
// at-least-once charges, then acks (manual-ack); idempotent keeps its
// dedup set in the process's memory (dedup-memory: lost with the
// process) or writes its dedup row in the ledger's transaction with the
// charge (dedup-database).
type consumerDriver struct {
	producer, broker, consumer, gateway sim.NodeID
	interval, restart                   sim.Time
	timeout, visibility                 sim.Time // the producer's wait for a confirm, the broker's for an ack
	deliver, chargeResult               sim.MsgKind
	publish, publishAck, commit         sim.MsgKind
	consume                             sim.MsgKind // a restarted consumer's subscribe (at-most-once)
	afterCharge, afterCommit            sim.PointID
	beforeMark                          sim.PointID
	checkCallMark                       bool // the model's consumer checks, charges, then marks: its crash point is before-mark
	gatewayName                         string
}

func newConsumerDriver(cfg *sim.Config) *consumerDriver {
	t := cfg.Topology
	n := lookup(t)
	d := &consumerDriver{}
	var p *queue.Producer
	var b *queue.Broker
	var c *queue.DedupConsumer
	d.producer, p = nodeOf[*queue.Producer](n, cfg)
	d.broker, b = nodeOf[*queue.Broker](n, cfg)
	d.consumer, c = nodeOf[*queue.DedupConsumer](n, cfg)
	if !n.ok {
		return nil
	}
	d.interval, d.timeout, d.visibility = p.Interval, p.Timeout, b.Visibility
	d.gateway, d.checkCallMark = c.Gateway, c.CheckCallMark
	d.gatewayName = t.NodeName(d.gateway)
	d.restart = t.Nodes[d.consumer].RestartAfter
	d.deliver, d.chargeResult = n.msg("deliver"), n.msg("charge-result")
	d.afterCharge, d.afterCommit = n.point("after-charge"), n.point("after-commit")
	d.publish, d.publishAck, d.commit, d.consume = n.msg("publish"), n.msg("publish-ack"), n.msg("commit"), n.msg("consume")
	if d.checkCallMark {
		d.beforeMark = n.point("before-mark")
	}
	if !n.ok {
		return nil
	}
	return d
}

func (d *consumerDriver) variants(sem sim.Semantics) []string {
	switch sem {
	case sim.AtMostOnce:
		return []string{"ack-before-effect"}
	case sim.AtLeastOnce:
		return []string{"manual-ack"}
	}
	return []string{"dedup-database", "dedup-memory"}
}

func (d *consumerDriver) effectNode() string { return d.gatewayName }

// applies: the consumer's crash (SIGKILL before its ack); a lost publish
// and a lost publisher confirm (the producer publishes again after its
// timeout); a lost delivery and a lost ack (the consumer requeues the
// delivery after the visibility timeout, as the model's broker redelivers).
func (d *consumerDriver) applies() []sim.FaultKind {
	return []sim.FaultKind{sim.FaultCrash, sim.FaultLoss, sim.FaultAckLoss}
}

// consumerRun is one run's state on the driver's side.
type consumerRun struct {
	d        *consumerDriver
	e        *env
	mu       sync.Mutex
	nth      map[int64]int    // offset → deliveries so far
	delivery map[string]int   // "op tag pid" → its delivery number
	offsetOf map[string]int64 // "op tag pid" → the offset of the message (its publish order)
	offsets  int64            // messages stored (publishes confirmed by RabbitMQ)
	pubDone  bool             // the producer is done: every operation confirmed (or sent once, at most once)
	settled  map[int64]bool   // offset → acked after its charge or dedup, or lost for good
	// resubLost: under at-most-once, the decider lost the restarted
	// consumer's consume, so the model's broker does not requeue the
	// record delivered to the crashed consumer and gives it up after the
	// visibility timeout; givenUp are those records (offsets).
	resubLost bool
	givenUp   map[int64]bool
}

func (d *consumerDriver) run(ctx context.Context, e *env) (bool, error) {
	if err := createLedger(e.dir); err != nil {
		return false, err
	}
	conn, err := amqp.Dial(e.url)
	if err != nil {
		return false, fmt.Errorf("brokers: rabbitmq: %w", err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		return false, fmt.Errorf("brokers: rabbitmq: %w", err)
	}
	if _, err := ch.QueueDeclare(e.prefix, true, false, false, false, nil); err != nil {
		return false, fmt.Errorf("brokers: rabbitmq: declare queue %s: %w", e.prefix, err)
	}
	defer func() { // the run's queue goes with it: runs share one server
		if c, err := conn.Channel(); err == nil {
			c.QueueDelete(e.prefix, false, false, false)
			c.Close()
		}
	}()
	if err := ch.Confirm(false); err != nil {
		return false, fmt.Errorf("brokers: rabbitmq: confirm mode: %w", err)
	}
	r := &consumerRun{d: d, e: e, nth: map[int64]int{}, delivery: map[string]int{}, offsetOf: map[string]int64{}, settled: map[int64]bool{}, givenUp: map[int64]bool{}}
	e.say("queue %s (durable), persistent messages, publisher confirms; consumer with manual ack, Qos 1, variant %s", e.prefix, e.variant)
	notYet := []string{sim.FaultKinds[sim.FaultDup].Name, sim.FaultKinds[sim.FaultPause].Name}
	e.say("faults applied: the consumer's %s (SIGKILL at %s, restarted after %d ms); %s of a publish, a delivery (the consumer requeues it after the visibility timeout, %d ms); %s of a publisher confirm (the producer publishes again after %d ms) and of the consumer's ack (requeued after %d ms); not applied on RabbitMQ: %s",
		sim.FaultKinds[sim.FaultCrash].Name, map[bool]string{true: "after-commit", false: "after-charge"}[e.cfg.Semantics == sim.AtMostOnce], d.restart,
		sim.FaultKinds[sim.FaultLoss].Name, d.visibility, sim.FaultKinds[sim.FaultAckLoss].Name, d.timeout, d.visibility, strings.Join(notYet, ", "))
	starts := 0
	start := func() (*worker, error) {
		if starts++; starts > 1 && e.cfg.Semantics == sim.AtMostOnce {
			// The model's restarted consumer subscribes again (consume),
			// which requeues the record delivered to it as it crashed.
			m := sim.Message{Kind: d.consume, From: d.consumer, To: d.broker}
			lost := e.dec.Transmit(m).Drop
			if !lost {
				e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.broker, Peer: d.consumer, Msg: m})
			}
			r.mu.Lock()
			r.resubLost = lost
			r.mu.Unlock()
		}
		cfg := &workerConfig{Role: "rabbitmq-consumer", Node: e.cfg.Topology.NodeName(d.consumer), URL: e.url, Ledger: ledgerPath(e.dir),
			Ops: e.cfg.Ops, Semantics: e.cfg.Semantics.Alias(), Variant: e.variant, Queue: e.prefix, Visibility: int64(d.visibility)}
		w, err := startWorker(e.o.Worker, e.o.WorkerEnv, cfg, e.evidence)
		if err != nil {
			return nil, err
		}
		if e.o.Verbose {
			e.say("consumer is process %d", w.proc.pid())
		}
		return w, nil
	}
	cons, err := newRestartingWorker(e, d.consumer, "consumer", time.Duration(d.restart)*time.Millisecond, start)
	if err != nil {
		return false, err
	}
	defer cons.stop()
	if s, err := next(ctx, cons.current()); err != nil {
		return false, err
	} else if s.verb != "ready" {
		return false, fmt.Errorf("brokers: the consumer said %q before it was ready", s.verb)
	}
	e.dec.Begin()
	pubErr := make(chan error, 1)
	go func() { pubErr <- r.publish(ctx, ch) }()
	if done, err := cons.run(ctx, func(w *worker) (bool, error) { return r.follow(ctx, w) }); !done {
		return false, err
	}
	if err := <-pubErr; err != nil {
		return false, err
	}
	return true, nil
}

// publish sends operation 1..ops, one per interval, each confirmed, as
// the simulator's producer: a publish the decider loses is not sent, a
// confirm it loses is not read, and either is published again after the
// producer's timeout (not under at-most-once). Each message carries its
// offset (its place in the queue: the order RabbitMQ stored it) in the
// header "offset", the simulator's log offset.
func (r *consumerRun) publish(ctx context.Context, ch *amqp.Channel) error {
	e, d := r.e, r.d
	amo := e.cfg.Semantics == sim.AtMostOnce
	type due struct {
		at      time.Duration
		op      int
		attempt int32
	}
	var q []due
	for op := 1; op <= e.cfg.Ops; op++ {
		q = append(q, due{time.Duration(int64(op-1)*int64(d.interval)) * time.Millisecond, op, 1})
	}
	t0 := time.Now()
	for len(q) > 0 {
		slices.SortStableFunc(q, func(a, b due) int { return cmp.Compare(a.at, b.at) })
		x := q[0]
		q = q[1:]
		select {
		case <-time.After(time.Until(t0.Add(x.at))):
		case <-ctx.Done():
			return nil
		}
		retry := due{time.Since(t0) + time.Duration(d.timeout)*time.Millisecond, x.op, x.attempt + 1}
		m := sim.Message{Kind: d.publish, From: d.producer, To: d.broker, Op: sim.OpID(x.op), Attempt: x.attempt}
		if e.dec.Transmit(m).Drop {
			e.say("op-%d publish %d lost before RabbitMQ (not sent)%s", x.op, x.attempt, map[bool]string{true: ": at most once, never again", false: fmt.Sprintf("; the producer publishes again after %d ms", d.timeout)}[amo])
			if !amo {
				q = append(q, retry)
			}
			continue
		}
		r.mu.Lock()
		r.offsets++
		offset := r.offsets
		r.mu.Unlock()
		if stopped, err := publishConfirmed(ctx, ch, e.prefix, x.op, amqp.Table{"offset": offset}); stopped || err != nil {
			return err
		}
		e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.broker, Peer: d.producer, Msg: m})
		if amo {
			continue
		}
		am := sim.Message{Kind: d.publishAck, From: d.broker, To: d.producer, Op: sim.OpID(x.op), Attempt: x.attempt}
		if e.dec.Transmit(am).Drop {
			e.say("op-%d publish %d stored (offset %d), its publisher confirm is lost: the producer publishes again after %d ms, a second message", x.op, x.attempt, offset, d.timeout)
			q = append(q, retry)
			continue
		}
		e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.producer, Peer: d.broker, Msg: am})
	}
	r.mu.Lock()
	r.pubDone = true
	r.mu.Unlock()
	return nil
}

// follow handles the consumer's steps until every stored message is
// settled and the producer is done (false) or the decider crashes the
// consumer (true).
func (r *consumerRun) follow(ctx context.Context, w *worker) (crashed bool, err error) {
	d, e := r.d, r.e
	amo := e.cfg.Semantics == sim.AtMostOnce
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		s, ok, err := nextStep(ctx, w, "consumer", tick.C, nil, r.allSettled)
		if !ok {
			return false, err
		}
		key := fmt.Sprint(s.op, s.attempt, w.proc.pid())
		switch s.verb {
		case "deliver":
			off, _ := strconv.ParseInt(s.arg(1), 10, 64)
			r.mu.Lock()
			r.nth[off]++
			if amo && r.nth[off] > 1 {
				// Seen before by a consumer killed before its ack
				// reached RabbitMQ (the model's lost commit): the model's
				// consumer drops a record it has seen (its seen table)
				// and its broker gives it up after the visibility timeout.
				r.givenUp[off] = true
			} else if amo && r.nth[off] == 1 && s.arg(0) == "true" {
				// RabbitMQ delivered it to a consumer killed before it
				// read it (sent after its last ack, requeued when its
				// connection died): that delivery counts, as the model's
				// delivery to the crashed consumer does; if the model's
				// consume was lost, its broker gives that record up.
				r.nth[off]++
				if r.resubLost {
					r.givenUp[off] = true
				}
			}
			n := r.nth[off]
			r.delivery[key], r.offsetOf[key] = n, off
			r.mu.Unlock()
			if s.arg(0) == "true" {
				e.say("op-%d delivered again (delivery %d, Redelivered=true, delivery tag %d, offset %d)", s.op, n, s.attempt, off)
			}
		case "arrive": // the delivery's fate, as the simulator's network decides it
			n, off := r.deliveryOf(key), r.offset(key)
			if r.isGivenUp(off) {
				e.say("op-%d delivery %d: the model's broker gives it up (the consumer had seen it, or its consume after the restart was lost): acked unprocessed after the visibility timeout, %d ms", s.op, n, d.visibility)
				r.settle(off)
				w.tell("lose %d %d", s.op, s.attempt)
				continue
			}
			m := sim.Message{Kind: d.deliver, From: d.broker, To: d.consumer, Op: sim.OpID(s.op), Attempt: int32(n)}
			if e.dec.Transmit(m).Drop {
				if amo {
					e.say("op-%d delivery %d is lost: the consumer acks it unprocessed after the visibility timeout, %d ms (at most once: never redelivered)", s.op, n, d.visibility)
					r.settle(off)
				} else {
					e.say("op-%d delivery %d is lost: the consumer requeues it unprocessed after the visibility timeout, %d ms (Nack)", s.op, n, d.visibility)
				}
				w.tell("lose %d %d", s.op, s.attempt)
				continue
			}
			e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.consumer, Peer: d.broker, Msg: m})
			w.tell("go %d %d", s.op, s.attempt)
		case "commit": // the ack's fate
			off := r.offset(key)
			att := int32(off) // the model's commit names the offset; under at-most-once the delivery
			if amo {
				att = int32(r.deliveryOf(key))
			}
			m := sim.Message{Kind: d.commit, From: d.consumer, To: d.broker, Op: sim.OpID(s.op), Attempt: att}
			if e.dec.Transmit(m).Drop {
				if amo {
					e.say("op-%d: the ack of delivery %d is lost: the consumer acks %d ms late, as the model's broker gives the delivery up after its visibility timeout and only then delivers the next", s.op, r.deliveryOf(key), d.visibility)
					w.tell("lose %d %d", s.op, s.attempt)
					continue
				}
				e.say("op-%d: the ack of delivery %d is lost: the consumer requeues it after the visibility timeout, %d ms (Nack), as the broker redelivers an uncommitted message", s.op, r.deliveryOf(key), d.visibility)
				w.tell("lose %d %d", s.op, s.attempt)
				continue
			}
			e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.broker, Peer: d.consumer, Msg: m})
			w.tell("go %d %d", s.op, s.attempt)
		case "requeued":
			e.say("op-%d delivery %d requeued (Nack, requeue=true)", s.op, r.deliveryOf(key))
		case "dedup":
			where := map[string]string{"memory": "set in the consumer's memory", "database": "table, written with the charge"}[s.arg(0)]
			e.say("op-%d delivery %d found in the dedup %s: acked, not charged", s.op, r.deliveryOf(key), where)
		case "point":
			// The simulator's identity of the crash decision: under
			// at-most-once the point after-commit with the delivery of
			// the record at its log offset; otherwise the point after the charge
			// (before-mark where the model checks, charges, then marks)
			// with the charge's result, whose attempt is the delivery's
			// log offset: the message's place in the queue.
			off := r.offset(key)
			point, m := d.afterCharge, sim.Message{Kind: d.chargeResult, From: d.gateway, To: d.consumer, Op: sim.OpID(s.op), Attempt: int32(off)}
			if d.checkCallMark && e.cfg.Semantics == sim.Idempotent {
				point = d.beforeMark
			}
			if s.arg(0) == "after-commit" {
				point, m = d.afterCommit, sim.Message{Kind: d.deliver, From: d.broker, To: d.consumer, Op: sim.OpID(s.op), Attempt: int32(off)}
			}
			if crash, _ := e.dec.Point(d.consumer, point, m); crash {
				w.proc.kill()
				e.say("consumer killed (SIGKILL, pid %d) at %s of op-%d, before its ack", w.proc.pid(), s.arg(0), s.op)
				if s.arg(0) == "after-commit" { // acked before the charge: lost, never redelivered
					r.settle(off)
				}
				return true, nil
			}
			w.tell("go %d %d", s.op, s.attempt)
		case "charged":
			e.say("%s: op-%d charged (delivery %d)", d.gatewayName, s.op, r.deliveryOf(key))
			if amo { // acked before its charge: done with it
				r.settle(r.offset(key))
			}
		case "acked":
			if !amo {
				r.settle(r.offset(key))
			}
		}
	}
}

// settle marks the message at offset done with: acked after its charge
// or dedup; under at-most-once charged, or lost for good.
func (r *consumerRun) settle(offset int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settled[offset] = true
}

// allSettled says whether the producer is done and every message stored
// is settled.
func (r *consumerRun) allSettled() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pubDone && int64(len(r.settled)) == r.offsets
}

func (r *consumerRun) isGivenUp(offset int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.givenUp[offset]
}

func (r *consumerRun) offset(key string) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.offsetOf[key]
}

func (r *consumerRun) deliveryOf(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.delivery[key]
}

// runConsumer is the consumer process (WorkerMain): manual ack, Qos 1,
// and the variant's order of charge, dedup and ack.
func runConsumer(ctx context.Context, cfg *workerConfig, w *workerIO) error {
	conn, err := amqp.Dial(cfg.URL)
	if err != nil {
		return fmt.Errorf("%s: rabbitmq: %w", cfg.Node, err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		return fmt.Errorf("%s: rabbitmq: %w", cfg.Node, err)
	}
	if err := ch.Qos(1, 0, false); err != nil {
		return fmt.Errorf("%s: rabbitmq: qos: %w", cfg.Node, err)
	}
	deliveries, err := ch.ConsumeWithContext(ctx, cfg.Queue, cfg.Node, false, false, false, false, nil)
	if err != nil {
		return fmt.Errorf("%s: rabbitmq: consume %s: %w", cfg.Node, cfg.Queue, err)
	}
	db, err := openLedger(cfg.Ledger)
	if err != nil {
		return err
	}
	defer db.Close()
	seen := map[int]bool{} // dedup-memory: the process's memory, gone with it
	w.say("ready", 0, 0)
	requeue := func(dv amqp.Delivery, op, tag int) error {
		time.Sleep(time.Duration(cfg.Visibility) * time.Millisecond)
		if err := dv.Nack(false, true); err != nil {
			return fmt.Errorf("%s: nack: %w", cfg.Node, err)
		}
		w.say("requeued", op, tag)
		return nil
	}
	for dv := range deliveries {
		op, err := strconv.Atoi(string(dv.Body))
		if err != nil {
			return fmt.Errorf("%s: a message that is not an operation: %q", cfg.Node, dv.Body)
		}
		tag := int(dv.DeliveryTag)
		w.say("deliver", op, tag, dv.Redelivered, dv.Headers["offset"])
		if w.ask("arrive", "deliver", op, tag) == "lose" { // the decider lost the delivery
			if cfg.Variant == "ack-before-effect" { // the model's broker gives it up after the visibility timeout
				time.Sleep(time.Duration(cfg.Visibility) * time.Millisecond)
				if err := dv.Ack(false); err != nil {
					return fmt.Errorf("%s: ack: %w", cfg.Node, err)
				}
				continue
			}
			if err := requeue(dv, op, tag); err != nil {
				return err
			}
			continue
		}
		if cfg.Variant == "ack-before-effect" {
			if w.ask("commit", "ack", op, tag) == "lose" { // the decider lost the ack: it reaches RabbitMQ late
				go func(dv amqp.Delivery) {
					time.Sleep(time.Duration(cfg.Visibility) * time.Millisecond)
					dv.Ack(false)
				}(dv)
			} else if err := dv.Ack(false); err != nil {
				return fmt.Errorf("%s: ack: %w", cfg.Node, err)
			}
			w.say("acked", op, tag)
			w.point("after-commit", op, tag)
			if err := charge(ctx, db, op, cfg.Node, tag); err != nil {
				return err
			}
			w.say("charged", op, tag)
			continue
		}
		charged := true
		switch cfg.Variant {
		case "dedup-memory":
			if charged = !seen[op]; charged {
				err = charge(ctx, db, op, cfg.Node, tag)
				seen[op] = true
			}
		case "dedup-database":
			charged, err = chargeOnce(ctx, db, op, cfg.Node, tag)
		default: // manual-ack
			err = charge(ctx, db, op, cfg.Node, tag)
		}
		if err != nil {
			return err
		}
		if charged {
			w.say("charged", op, tag)
			w.point("after-charge", op, tag)
		} else {
			w.say("dedup", op, tag, map[bool]string{true: "memory", false: "database"}[cfg.Variant == "dedup-memory"])
		}
		if w.ask("commit", "ack", op, tag) == "lose" { // the decider lost the ack
			if err := requeue(dv, op, tag); err != nil {
				return err
			}
			continue
		}
		if err := dv.Ack(false); err != nil {
			return fmt.Errorf("%s: ack: %w", cfg.Node, err)
		}
		w.say("acked", op, tag)
	}
	return nil
}

// publishConfirmed publishes op, persistent, to the queue with headers and
// waits for RabbitMQ's publisher confirm; stopped says ctx ended while it
// waited (the run is over: no error).
func publishConfirmed(ctx context.Context, ch *amqp.Channel, queue string, op int, headers amqp.Table) (stopped bool, err error) {
	dc, err := ch.PublishWithDeferredConfirmWithContext(ctx, "", queue, true, false, amqp.Publishing{
		DeliveryMode: amqp.Persistent, MessageId: fmt.Sprintf("op-%d", op), Body: []byte(strconv.Itoa(op)),
		Headers: headers})
	if err != nil {
		return false, fmt.Errorf("brokers: rabbitmq: publish op-%d: %w", op, err)
	}
	if ok, err := dc.WaitContext(ctx); err != nil || !ok {
		if ctx.Err() != nil {
			return true, nil
		}
		return false, fmt.Errorf("brokers: rabbitmq: op-%d's publisher confirm: ack=%v %v", op, ok, err)
	}
	return false, nil
}
