package brokers

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/scenarios/roles/queue"
	"github.com/oncesim/once/sim"
)

// jetStreamDriver runs nats-msg-id-window on a real NATS JetStream: the
// publisher (in once) publishes each order to a stream of the run's own
// with the scenario's duplicate window, setting Nats-Msg-Id under the
// idempotent semantics, and republishes after its retry delay when the
// decider loses the publish or its publish ack; the subscriber is a
// process of its own on a durable push consumer (AckExplicit, the
// scenario's AckWait) that ships each delivery into the SQLite ledger
// (with dedup=msg-id: only if the id is not recorded, the record written
// in the shipment's transaction) and acks it with AckSync. At the point
// after the shipment the driver kills the subscriber (SIGKILL, restarted
// after the scenario's restart delay) or stops it (SIGSTOP) for the pause,
// past AckWait: JetStream redelivers, and the late ack is accepted.
// Each fault is keyed by the simulator's identity of the delivery (op,
// delivery count): the driver keeps the scenario's clock (jsTimeline) and
// drops, unshipped and unacked, a delivery the model's subscriber is down
// for, as the simulator does.
//
// JetStream's timers are real time, and the scenario's are minutes
// (the window 2 min, AckWait 30 s, a pause 45 s): every duration of the
// run is divided by natsScale, and the run says so.
type jetStreamDriver struct {
	publisher, stream, subscriber sim.NodeID
	interval, retry, restart      sim.Time
	attempts                      int64
	ackWait, window               sim.Time
	dedup                         bool
	publish, publishAck, deliver  sim.MsgKind
	afterEffect                   sim.PointID
	subscriberName                string
	link                          sim.Time // the stream's link to the subscriber
	pauseFor                      sim.Time
}

// natsScale divides the scenario's durations on NATS: AckWait 30 s → 1 s,
// the window 2 min → 4 s, a 45 s pause → 1.5 s, a 3 min retry → 6 s.
const natsScale = 30

func newJetStreamDriver(cfg *sim.Config) *jetStreamDriver {
	t := cfg.Topology
	n := lookup(t)
	d := &jetStreamDriver{}
	var p *queue.Producer
	var s *queue.JetStream
	var c *queue.JetStreamConsumer
	d.publisher, p = nodeOf[*queue.Producer](n, cfg)
	d.stream, s = nodeOf[*queue.JetStream](n, cfg)
	d.subscriber, c = nodeOf[*queue.JetStreamConsumer](n, cfg)
	if !n.ok {
		return nil
	}
	d.interval, d.retry, d.attempts = p.Interval, p.Timeout, p.Attempts
	d.ackWait, d.window, d.dedup = s.AckWait, s.DuplicateWindow, c.Dedup
	d.subscriberName = t.NodeName(d.subscriber)
	d.restart, d.pauseFor = t.Nodes[d.subscriber].RestartAfter, t.Nodes[d.subscriber].PauseFor
	if netw, ok := cfg.Network.(*network.Network); ok {
		d.link = netw.LinkAt(d.stream, d.subscriber).Delay
	}
	d.publish, d.publishAck, d.deliver = n.msg("publish"), n.msg("publish-ack"), n.msg("deliver")
	d.afterEffect = n.point("after-effect")
	if !n.ok {
		return nil
	}
	return d
}

func (d *jetStreamDriver) variants(sim.Semantics) []string { return nil }
func (d *jetStreamDriver) effectNode() string              { return d.subscriberName }

// applies: a lost publish, a lost publish ack (both retried), and the
// subscriber's crash and pause after its shipment.
func (d *jetStreamDriver) applies() []sim.FaultKind {
	return []sim.FaultKind{sim.FaultLoss, sim.FaultAckLoss, sim.FaultCrash, sim.FaultPause}
}

// natsTime is a scenario duration on NATS: divided by natsScale.
func natsTime(t sim.Time) time.Duration {
	return time.Duration(t) * time.Millisecond / natsScale
}

// jetStreamRun is one run's state on the driver's side.
type jetStreamRun struct {
	d       *jetStreamDriver
	e       *env
	mu      sync.Mutex
	pubDone map[int]bool   // op → the publisher is done with it (acknowledged or given up)
	stored  map[string]int // stream sequence → the op of the copy stored there
	acked   map[string]bool
	// inflight counts deliveries the subscriber reported and has not
	// acked; last is when it last reported a step: the run ends only
	// when nothing is in flight and it has been quiet for natsQuiet (a
	// redelivery that arrived during a pause comes right after the late ack).
	inflight int
	last     time.Time
	// tl is the simulator's clock of the run (which deliveries the
	// model's subscriber is down for); unseen are the sequences stored
	// while the subscriber was up and not yet delivered to it; down and
	// stopped say the subscriber is killed (until its restart is ready)
	// or stopped (SIGSTOP).
	tl            *jsTimeline
	unseen        map[uint64]bool
	down, stopped bool
	// downUntil and stoppedUntil are the model times the model's
	// subscriber restarts and resumes at.
	downUntil, stoppedUntil sim.Time

	pauses sync.WaitGroup
}

func (d *jetStreamDriver) run(ctx context.Context, e *env) (bool, error) {
	if err := createLedger(e.dir); err != nil {
		return false, err
	}
	nc, err := nats.Connect(e.url, nats.Name("once"), nats.MaxReconnects(0))
	if err != nil {
		return false, fmt.Errorf("brokers: nats: %w", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return false, fmt.Errorf("brokers: nats: %w", err)
	}
	name := e.prefix
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{name + ".orders.>"}, Duplicates: natsTime(d.window), Storage: jetstream.FileStorage}); err != nil {
		return false, fmt.Errorf("brokers: nats: create stream %s: %w", name, err)
	}
	defer func() { // the run's stream goes with it: runs share one server
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = js.DeleteStream(c, name)
	}()
	deliverTo := name + ".deliver"
	if _, err := js.CreateOrUpdatePushConsumer(ctx, name, jetstream.ConsumerConfig{Durable: "subscriber", DeliverSubject: deliverTo,
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: natsTime(d.ackWait), MaxAckPending: 1000}); err != nil {
		return false, fmt.Errorf("brokers: nats: push consumer: %w", err)
	}
	idem := e.cfg.Semantics == sim.Idempotent
	e.say("stream %s: duplicate window %s, push consumer AckExplicit, AckWait %s; Nats-Msg-Id %s; subscriber dedup %s",
		name, natsTime(d.window), natsTime(d.ackWait), map[bool]string{true: "set to the order id", false: "not set (at-least-once)"}[idem],
		map[bool]string{true: "msg-id (a record of processed ids, written with the shipment)", false: "none"}[d.dedup && idem])
	e.say("durations are scaled ÷%d (NATS's timers are real time): window %d ms → %s, AckWait %d ms → %s, retry %d ms → %s, pause %d ms → %s, interval %d ms → %s",
		natsScale, d.window, natsTime(d.window), d.ackWait, natsTime(d.ackWait), d.retry, natsTime(d.retry), e.cfg.Topology.Nodes[d.subscriber].PauseFor,
		natsTime(e.cfg.Topology.Nodes[d.subscriber].PauseFor), d.interval, natsTime(d.interval))
	r := &jetStreamRun{d: d, e: e, pubDone: map[int]bool{}, stored: map[string]int{}, acked: map[string]bool{},
		tl: newJSTimeline(d.ackWait, d.restart), unseen: map[uint64]bool{}}
	start := func() (*worker, error) {
		cfg := &workerConfig{Role: "nats-subscriber", Node: d.subscriberName, URL: e.url, Ledger: ledgerPath(e.dir), Ops: e.cfg.Ops,
			Semantics: e.cfg.Semantics.Alias(), Queue: deliverTo, Fencing: d.dedup && idem}
		w, err := startWorker(e.o.Worker, e.o.WorkerEnv, cfg, e.evidence)
		if err != nil {
			return nil, err
		}
		if e.o.Verbose {
			e.say("subscriber is process %d", w.proc.pid())
		}
		if s, err := next(ctx, w); err != nil {
			w.proc.kill()
			return nil, err
		} else if s.verb != "ready" {
			w.proc.kill()
			return nil, fmt.Errorf("brokers: the subscriber said %q before it was ready", s.verb)
		}
		return w, nil
	}
	sub, err := newRestartingWorker(e, d.subscriber, "subscriber", natsTime(d.restart), start)
	if err != nil {
		return false, err
	}
	defer func() { sub.stop(); r.pauses.Wait() }()
	e.dec.Begin()
	pubCtx, stopPub := context.WithCancel(ctx)
	defer stopPub()
	pubErr := make(chan error, 1)
	go func() { pubErr <- r.publishAll(pubCtx, js, idem) }()
	return sub.run(ctx, func(w *worker) (bool, error) { return r.follow(ctx, w, pubErr) })
}

// jsPublish is one publish of the schedule: order op's attempt, sent at
// sent on the scenario's clock.
type jsPublish struct {
	sent    sim.Time
	op      int
	attempt int32
}

// publishAll publishes the orders and their retries one at a time in the
// order of the scenario's clock (the publish of op at (op-1) × interval,
// a retry retry after the attempt before it), each at its time divided
// by natsScale or later: a real publish's goroutine could overtake the
// one before it, where the model's publishes reach the stream 100 ms
// apart. A retry follows until the publish and its ack come through (or
// it is given up after attempts).
func (r *jetStreamRun) publishAll(ctx context.Context, js jetstream.JetStream, idem bool) error {
	d, e := r.d, r.e
	t0 := time.Now()
	var queue []jsPublish
	for op := 1; op <= e.cfg.Ops; op++ {
		queue = append(queue, jsPublish{sim.Time(op-1) * d.interval, op, 1})
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		select {
		case <-time.After(time.Until(t0.Add(natsTime(p.sent)))):
		case <-ctx.Done():
			return nil
		}
		acked, err := r.publishOne(ctx, js, p, idem)
		if err != nil || ctx.Err() != nil {
			return err
		}
		if acked || (d.attempts > 0 && int64(p.attempt) >= d.attempts) {
			r.mu.Lock()
			r.pubDone[p.op] = true
			r.mu.Unlock()
			continue
		}
		next := jsPublish{p.sent + d.retry, p.op, p.attempt + 1}
		i, _ := slices.BinarySearchFunc(queue, next, func(a, b jsPublish) int { return cmp.Or(cmp.Compare(a.sent, b.sent), cmp.Compare(a.op, b.op)) })
		queue = slices.Insert(queue, i, next)
	}
	return nil
}

// publishOne publishes p once, as the decider lets it and its publish ack
// through: true when the publisher has its ack.
func (r *jetStreamRun) publishOne(ctx context.Context, js jetstream.JetStream, p jsPublish, idem bool) (bool, error) {
	d, e := r.d, r.e
	op, attempt, sent := p.op, p.attempt, p.sent
	m := sim.Message{Kind: d.publish, From: d.publisher, To: d.stream, Op: sim.OpID(op), Attempt: attempt}
	acked := false
	if f := e.dec.Transmit(m); f.Drop {
		e.say("op-%d publish %d lost before the stream (not sent); the publisher retries after %s", op, attempt, natsTime(d.retry))
	} else {
		r.settle(ctx, sent+f.Delay+d.link)
		var opts []jetstream.PublishOpt
		if idem {
			opts = append(opts, jetstream.WithMsgID("op-"+strconv.Itoa(op)))
		}
		ack, err := js.Publish(ctx, fmt.Sprintf("%s.orders.%d", e.prefix, op), []byte(strconv.Itoa(op)), opts...)
		if err != nil {
			if ctx.Err() != nil {
				return false, nil
			}
			return false, fmt.Errorf("brokers: nats: publish op-%d: %w", op, err)
		}
		e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.stream, Peer: d.publisher, Msg: m})
		r.mu.Lock()
		if !ack.Duplicate {
			r.stored[strconv.FormatUint(ack.Sequence, 10)] = op
			r.tl.stored(ack.Sequence, sent+f.Delay+d.link)
			if !r.down {
				r.unseen[ack.Sequence] = true
			}
		}
		r.mu.Unlock()
		am := sim.Message{Kind: d.publishAck, From: d.stream, To: d.publisher, Op: sim.OpID(op), Attempt: attempt}
		switch lost := e.dec.Transmit(am).Drop; {
		case ack.Duplicate:
			e.say("op-%d publish %d: PubAck seq %d Duplicate=true (inside the window: not stored again)%s", op, attempt, ack.Sequence, map[bool]string{true: "; the ack is lost", false: ""}[lost])
			acked = !lost
		case attempt > 1:
			e.say("op-%d publish %d: PubAck seq %d, stored again%s", op, attempt, ack.Sequence, map[bool]string{true: "; the ack is lost", false: ""}[lost])
			acked = !lost
		default:
			if lost {
				e.say("op-%d publish %d: stored at seq %d, the PubAck is lost; the publisher retries after %s", op, attempt, ack.Sequence, natsTime(d.retry))
			}
			acked = !lost
		}
		if acked {
			e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.publisher, Peer: d.stream, Msg: am})
		}
	}
	return acked, nil
}

// natsSettle bounds how long a publish waits for the subscriber: a
// restart on a loaded machine can take seconds.
const natsSettle = 30 * time.Second

// settle waits until the subscriber is where the model's is when the
// message published now reaches it, at model time at. The model's
// subscriber handles a delivery at once, before the next order is
// published 100 ms later, where a real one works in real time: the
// publish waits until it has taken every message stored while it was up
// and acked what it took. While it is killed, a message the model's
// subscriber is down for is published at once (JetStream holds it, or
// pushes it to the dying connection: either way the model's dropped
// delivery), a later one once the new process is subscribed — pushed to
// the dying connection it would come back as a second delivery where the
// model ships it as the first; while it is stopped (SIGSTOP), a message
// that arrives within the pause is published at once, a later one after
// it.
func (r *jetStreamRun) settle(ctx context.Context, at sim.Time) {
	until := time.Now().Add(natsSettle)
	for time.Now().Before(until) && ctx.Err() == nil && !r.mayPublish(at) {
		time.Sleep(time.Millisecond)
	}
}

// mayPublish says whether a message that reaches the model's subscriber
// at model time at may be published now (settle).
func (r *jetStreamRun) mayPublish(at sim.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.down:
		return at < r.downUntil
	case r.stopped:
		return at < r.stoppedUntil
	default:
		return r.inflight == 0 && len(r.unseen) == 0
	}
}

// natsQuiet is how long the subscriber must report nothing before a run
// whose every stored copy is acked ends.
const natsQuiet = 200 * time.Millisecond

// done says whether the run is over: the publisher is done with every
// order, every copy the stream stored is acked, no delivery is in flight
// and the subscriber has been quiet for natsQuiet.
func (r *jetStreamRun) done() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pubDone) < r.e.cfg.Ops || r.inflight > 0 || time.Since(r.last) < natsQuiet {
		return false
	}
	for seq := range r.stored {
		if !r.acked[seq] {
			return false
		}
	}
	return true
}

// follow handles the subscriber's steps until the run is over (false) or
// the decider crashes the subscriber (true).
func (r *jetStreamRun) follow(ctx context.Context, w *worker, pubErr <-chan error) (crashed bool, err error) {
	d, e := r.d, r.e
	late := map[int]bool{} // ops whose ack comes after a pause
	var lateMu sync.Mutex
	r.mu.Lock()
	r.down = false // this process is ready
	r.mu.Unlock()
	var at sim.Time // the model time of the delivery being handled
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		s, ok, err := nextStep(ctx, w, "subscriber", tick.C, &pubErr, r.done)
		if !ok {
			return false, err
		}
		n := s.attempt // JetStream's NumDelivered: the simulator's delivery count of the stream sequence
		r.mu.Lock()
		r.last = time.Now()
		if s.verb == "acked" {
			r.inflight--
		}
		r.mu.Unlock()
		switch s.verb {
		case "deliver":
			seq, _ := strconv.ParseUint(s.arg(0), 10, 64)
			for wait := time.Now().Add(natsSettle); !r.tl.known(seq) && time.Now().Before(wait); { // its PubAck may come after the push
				time.Sleep(time.Millisecond)
			}
			var down bool
			at, down = r.tl.handled(seq, n)
			r.mu.Lock()
			delete(r.unseen, seq)
			if !down {
				r.inflight++
			}
			r.mu.Unlock()
			m := sim.Message{Kind: d.deliver, From: d.stream, To: d.subscriber, Op: sim.OpID(s.op), Attempt: int32(n)}
			e.dec.Record(sim.Event{Kind: sim.EvSend, Node: d.stream, Peer: d.subscriber, Msg: m})
			if down {
				e.dec.Record(sim.Event{Kind: sim.EvDrop, Node: d.stream, Peer: d.subscriber, Reason: sim.DropDown, Msg: m})
				e.say("op-%d delivery %d (stream seq %s) dropped: at %d ms on the scenario's clock the model's subscriber is down (crashed, not yet restarted); JetStream delivers it again after AckWait", s.op, n, s.arg(0), at)
				w.tell("lose %d %d", s.op, n)
				continue
			}
			e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.subscriber, Peer: d.stream, Msg: m})
			if n > 1 {
				e.say("op-%d delivered again (stream seq %s, NumDelivered %d)", s.op, s.arg(0), n)
			}
			w.tell("go %d %d", s.op, n)
		case "shipped":
			e.say("%s: op-%d shipped (NumDelivered %d)", d.subscriberName, s.op, n)
		case "dedup":
			e.say("op-%d (NumDelivered %d): its Nats-Msg-Id is recorded, acked, not shipped", s.op, n)
		case "point":
			m := sim.Message{Kind: d.deliver, From: d.stream, To: d.subscriber, Op: sim.OpID(s.op), Attempt: int32(n)}
			crash, pause := e.dec.Point(d.subscriber, d.afterEffect, m)
			if crash {
				r.tl.crashed(at)
				r.mu.Lock()
				r.inflight = 0 // the killed process's deliveries come back after AckWait
				r.down, r.downUntil = true, at+d.restart
				clear(r.unseen) // lost with the process, or held by JetStream until it is back
				r.mu.Unlock()
				w.proc.kill()
				e.say("subscriber killed (SIGKILL, pid %d) after shipping op-%d, before its ack", w.proc.pid(), s.op)
				return true, nil
			}
			if pause > 0 {
				r.tl.pausedFor(at, pause)
				r.mu.Lock()
				r.stopped, r.stoppedUntil = true, at+pause
				r.mu.Unlock()
				if err := w.stop(); err != nil {
					return false, err
				}
				e.say("subscriber stopped (SIGSTOP, pid %d) for %s after shipping op-%d, before its ack; AckWait is %s", w.proc.pid(), natsTime(pause), s.op, natsTime(d.ackWait))
				r.pauses.Add(1)
				go func(op, n int) {
					defer r.pauses.Done()
					select {
					case <-time.After(natsTime(pause)):
					case <-ctx.Done():
					}
					_ = w.signal(syscall.SIGCONT)
					r.mu.Lock()
					r.stopped = false
					r.mu.Unlock()
					lateMu.Lock()
					late[op] = true
					lateMu.Unlock()
					e.say("subscriber continued (SIGCONT): it acks op-%d's delivery %d late", op, n)
					w.tell("go %d %d", op, n)
				}(s.op, n)
				continue
			}
			w.tell("go %d %d", s.op, n)
		case "acked":
			lateMu.Lock()
			wasLate := late[s.op]
			delete(late, s.op)
			lateMu.Unlock()
			if n > 1 || wasLate || s.arg(1) != "accepted" {
				e.say("op-%d: the ack of delivery %d (stream seq %s): %s", s.op, n, s.arg(0), s.arg(1))
			}
			r.mu.Lock()
			r.acked[s.arg(0)] = true
			r.mu.Unlock()
			if r.done() {
				return false, nil
			}
		}
	}
}

// runSubscriber is the subscriber process (WorkerMain): a plain
// subscription to the push consumer's deliver subject; each message is
// shipped into the ledger (dedup by Nats-Msg-Id with cfg.Fencing), then,
// after the point the driver may stop or kill it at, acked with AckSync.
func runSubscriber(ctx context.Context, cfg *workerConfig, w *workerIO) error {
	nc, err := nats.Connect(cfg.URL, nats.Name(cfg.Node), nats.MaxReconnects(0))
	if err != nil {
		return fmt.Errorf("%s: nats: %w", cfg.Node, err)
	}
	defer nc.Close()
	db, err := openLedger(cfg.Ledger)
	if err != nil {
		return err
	}
	defer db.Close()
	msgs := make(chan *nats.Msg, 1024)
	sub, err := nc.ChanSubscribe(cfg.Queue, msgs)
	if err != nil {
		return fmt.Errorf("%s: nats: subscribe %s: %w", cfg.Node, cfg.Queue, err)
	}
	defer sub.Unsubscribe()
	if err := nc.Flush(); err != nil {
		return fmt.Errorf("%s: nats: %w", cfg.Node, err)
	}
	w.say("ready", 0, 0)
	for msg := range msgs {
		op, err := strconv.Atoi(string(msg.Data))
		if err != nil {
			return fmt.Errorf("%s: a message that is not an order: %q", cfg.Node, msg.Data)
		}
		md, err := msg.Metadata()
		if err != nil {
			return fmt.Errorf("%s: nats: metadata: %w", cfg.Node, err)
		}
		n := int(md.NumDelivered)
		if w.ask("deliver", strconv.FormatUint(md.Sequence.Stream, 10), op, n) == "lose" {
			continue // the model's subscriber is down for it: not shipped, not acked
		}
		shipped := true
		if cfg.Fencing {
			shipped, err = chargeOnce(ctx, db, op, cfg.Node, n)
		} else {
			err = charge(ctx, db, op, cfg.Node, n)
		}
		if err != nil {
			return err
		}
		if shipped {
			w.say("shipped", op, n)
			w.point("after-effect", op, n)
		} else {
			w.say("dedup", op, n)
		}
		answer := "accepted"
		if err := msg.AckSync(nats.AckWait(5 * time.Second)); err != nil {
			answer = "refused:" + strings.ReplaceAll(err.Error(), " ", "_")
		}
		w.say("acked", op, n, md.Sequence.Stream, answer)
	}
	return nil
}
