package queue

import (
	"strconv"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// How an OutboxService gets an order's event to the broker.
const (
	writeOutbox            = "outbox"              // order row and outbox row in one local transaction; a relay publishes
	writeCommitThenPublish = "commit-then-publish" // dual write: commit the order, then publish the event
	writePublishThenCommit = "publish-then-commit" // dual write: publish the event, then commit the order
)

var writeValues = []string{writeOutbox, writeCommitThenPublish, writePublishThenCommit}

// OutboxService places one order per operation (the customer's request
// arrives at the operation's start time) and must tell the rest of the
// system about it with an "order placed" event. Each committed order row is
// an effect on the orders sink, which the no-phantom-events invariant
// watches.
//
//   - outbox: the order row and an outbox row are written in one local
//     transaction, then the relay is notified (LISTEN/NOTIFY style). A
//     crash after the commit loses nothing: the outbox row is durable, and
//     a restarted service notifies the relay again.
//   - commit-then-publish: the order is committed, then the event is
//     published to the broker (republished until acknowledged while the
//     process lives). A crash in between leaves an order nobody hears of.
//   - publish-then-commit: the event is published, then the order is
//     committed. A crash in between leaves an event about an order that
//     does not exist: a phantom.
//
// A request that dies with a crash is not retried (the customer sees an
// error page); operations not started yet are started after the restart.
type OutboxService struct {
	Relay    sim.NodeID
	Broker   sim.NodeID
	Interval sim.Time
	Timeout  sim.Time
	Write    string
}

const (
	outboxOrders  sim.TableID = iota // op → committed order row
	outboxRows                       // sequence → {State: ORDER-PLACED, Value: op, Aux: amount}: the outbox table
	outboxStarted                    // op → the request arrived (durable: survives restarts)
	outboxPending                    // op → {Value: attempt}: dual-write publishes awaiting an ack (volatile)
	outboxEpoch                      // row 0: the first boot (the workload's time origin)
)

// Start schedules the requests not started yet. After a crash it also
// nudges the relay: an outbox row may have been committed but never
// announced, and a fetch of the relay's may have died with the service.
func (s *OutboxService) Start(ctx *sim.Context) {
	if s.Write == writeOutbox && ctx.Rows(outboxStarted).Len() > 0 {
		ctx.Send(s.Relay, sim.Message{Kind: MsgOutboxNotify})
	}
	workload{Table: outboxStarted, Epoch: outboxEpoch, Interval: s.Interval}.schedule(ctx)
}

// commitOrder writes the order row (and, with the outbox, the outbox row in
// the same local transaction).
func (s *OutboxService) commitOrder(ctx *sim.Context, op sim.OpID) {
	ctx.Put(outboxOrders, int64(op), op, sim.Record{State: 1, Value: roles.Payload(op)})
	if s.Write == writeOutbox {
		seq := int64(ctx.Rows(outboxRows).Len() + 1)
		ctx.Put(outboxRows, seq, op, sim.Record{State: 1, Value: int64(op), Aux: roles.Payload(op)})
	}
	ctx.Effect(SinkOrders, op, roles.Payload(op))
}

// Timer handles a customer's request, or a publish retry.
func (s *OutboxService) Timer(ctx *sim.Context, t sim.Timer) {
	switch t.Kind {
	case roles.TimerStartOp:
		s.place(ctx, t.Op)
	case roles.TimerRetry:
		r, ok := ctx.Get(outboxPending, int64(t.Op), t.Op)
		if ok && r.Value == int64(t.Attempt) {
			s.publish(ctx, t.Op, t.Attempt+1)
		}
	}
}

func (s *OutboxService) place(ctx *sim.Context, op sim.OpID) {
	ctx.Put(outboxStarted, int64(op), op, sim.Record{})
	m := sim.Message{Op: op, Attempt: 1}
	switch s.Write {
	case writeOutbox:
		s.commitOrder(ctx, op)
		if ctx.CrashPoint(PointAfterDBCommit, &m) {
			return
		}
		ctx.Send(s.Relay, sim.Message{Kind: MsgOutboxNotify, Op: op})
	case writeCommitThenPublish:
		s.commitOrder(ctx, op)
		if ctx.CrashPoint(PointAfterDBCommit, &m) {
			return
		}
		s.publish(ctx, op, 1)
	case writePublishThenCommit:
		s.publish(ctx, op, 1)
		if ctx.CrashPoint(PointAfterPublish, &m) {
			return
		}
		s.commitOrder(ctx, op)
	}
}

// publish sends the event of op straight to the broker (dual write) and,
// except under at-most-once, retries it until acknowledged.
func (s *OutboxService) publish(ctx *sim.Context, op sim.OpID, attempt int32) {
	ctx.Send(s.Broker, sim.Message{Kind: MsgPublish, Op: op, Attempt: attempt, Payload: roles.Payload(op)})
	if ctx.Semantics() != sim.AtMostOnce {
		ctx.Put(outboxPending, int64(op), op, sim.Record{Value: int64(attempt)})
		ctx.After(s.Timeout, sim.Timer{Kind: roles.TimerRetry, Op: op, Attempt: attempt})
	}
}

// Receive answers the relay's fetches and the broker's acks.
func (s *OutboxService) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPublishAck:
		ctx.Delete(outboxPending, int64(m.Op), m.Op)
	case MsgOutboxFetch:
		seq := m.Key
		r, ok := ctx.Get(outboxRows, seq, 0)
		if !ok {
			ctx.Send(m.From, sim.Message{Kind: MsgOutboxRow, Key: seq, Status: statusEndOfLog})
			return
		}
		op := sim.OpID(r.Value)
		ctx.Send(m.From, sim.Message{Kind: MsgOutboxRow, Op: op, Key: seq, Payload: r.Aux, Status: roles.StatusOK})
	}
}

// OutboxRelay reads the service's outbox table in order and publishes each
// row to the broker, remembering in a durable position how far it got (as a
// change-data-capture connector keeps its log position).
//
//   - at-most-once: the position is saved before the publish, which is
//     sent once — a crash in between, or a lost publish, loses the event;
//   - otherwise: publish, wait for the broker's ack (republishing on
//     timeout), then save the position. A crash after the publish and
//     before the position is saved publishes the row again after the
//     restart: the consumer must be idempotent.
type OutboxRelay struct {
	Service sim.NodeID
	Broker  sim.NodeID
	Timeout sim.Time
}

// Relay states (row 0 of its volatile state table).
const (
	relayIdle int32 = iota
	relayFetching
	relayPublishing
)

const (
	relayPosition sim.TableID = iota // row 0: {Value: last outbox sequence published}
	relayAttempts                    // op → publishes so far (durable, so attempts keep counting across restarts)
	relayState                       // row 0: {State, Value: sequence, Aux: op}: volatile
)

// Start catches up from the saved position.
func (r *OutboxRelay) Start(ctx *sim.Context) { r.fetch(ctx) }

// Timer republishes an unacknowledged row.
func (r *OutboxRelay) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != roles.TimerRetry {
		return
	}
	st, _ := ctx.Get(relayState, 0, t.Op)
	a, _ := ctx.Get(relayAttempts, int64(t.Op), t.Op)
	if st.State == relayPublishing && st.Value == t.Key && a.Value == int64(t.Attempt) {
		r.publish(ctx, t.Op, t.Key, sim.Message{Op: t.Op, Payload: roles.Payload(t.Op)})
	}
}

func (r *OutboxRelay) fetch(ctx *sim.Context) {
	pos, _ := ctx.Get(relayPosition, 0, 0)
	ctx.Put(relayState, 0, 0, sim.Record{State: relayFetching})
	ctx.Send(r.Service, sim.Message{Kind: MsgOutboxFetch, Key: pos.Value + 1})
}

func (r *OutboxRelay) savePosition(ctx *sim.Context, seq int64, op sim.OpID) {
	ctx.Put(relayPosition, 0, op, sim.Record{Value: seq})
}

func (r *OutboxRelay) publish(ctx *sim.Context, op sim.OpID, seq int64, row sim.Message) {
	a, _ := ctx.Get(relayAttempts, int64(op), op)
	a.Value++
	ctx.Put(relayAttempts, int64(op), op, a)
	ctx.Put(relayState, 0, op, sim.Record{State: relayPublishing, Value: seq, Aux: int64(op)})
	ctx.Send(r.Broker, sim.Message{Kind: MsgPublish, Op: op, Attempt: int32(a.Value), Payload: row.Payload})
	if ctx.Semantics() != sim.AtMostOnce {
		ctx.After(r.Timeout, sim.Timer{Kind: roles.TimerRetry, Op: op, Attempt: int32(a.Value), Key: seq})
	}
}

// Receive handles notifications, outbox rows and the broker's acks.
func (r *OutboxRelay) Receive(ctx *sim.Context, m sim.Message) {
	st, _ := ctx.Get(relayState, 0, m.Op)
	switch m.Kind {
	case MsgOutboxNotify:
		// Idle: there is news. Fetching: the fetch is already asking —
		// unless this is a restarted service's nudge (no operation), in
		// which case the fetch may have died with it; asking again is
		// harmless.
		if st.State == relayIdle || (st.State == relayFetching && m.Op == 0) {
			r.fetch(ctx)
		}
	case MsgOutboxRow:
		pos, _ := ctx.Get(relayPosition, 0, m.Op)
		if st.State != relayFetching || m.Key != pos.Value+1 {
			return
		}
		if m.Status != roles.StatusOK {
			ctx.Put(relayState, 0, 0, sim.Record{State: relayIdle})
			return
		}
		if ctx.Semantics() == sim.AtMostOnce {
			r.savePosition(ctx, m.Key, m.Op)
			if ctx.CrashPoint(PointAfterCommit, &m) {
				return
			}
			r.publish(ctx, m.Op, m.Key, m)
			r.fetch(ctx)
			return
		}
		r.publish(ctx, m.Op, m.Key, m)
	case MsgPublishAck:
		if st.State != relayPublishing || st.Aux != int64(m.Op) {
			return
		}
		if ctx.CrashPoint(PointAfterPublish, &m) {
			return
		}
		r.savePosition(ctx, st.Value, m.Op)
		r.fetch(ctx)
	}
}

// noPhantoms is the invariant "no-phantom-events": no downstream effect of
// an event happens while the domain change it announces is not committed.
// It folds the trace: effects on the orders sink commit an operation; an
// effect of that operation on any other sink before then is a phantom.
type noPhantoms struct {
	orders    uint8
	committed []bool // by op
	first     string
	phantoms  int32
	topo      *sim.Topology
}

func newNoPhantoms(topo *sim.Topology) *noPhantoms {
	n := &noPhantoms{topo: topo, orders: 255}
	for i, name := range topo.Sinks {
		if name == "orders" {
			n.orders = uint8(i)
		}
	}
	return n
}

// Name implements sim.Invariant.
func (n *noPhantoms) Name() string { return "no-phantom-events" }

// Record implements sim.Recorder.
func (n *noPhantoms) Record(e *sim.Event) {
	if e.Kind != sim.EvEffect || e.Msg.Op <= 0 {
		return
	}
	op := int(e.Msg.Op)
	for len(n.committed) <= op {
		n.committed = append(n.committed, false)
	}
	if e.Label == n.orders {
		n.committed[op] = true
		return
	}
	if !n.committed[op] {
		n.phantoms++
		if n.first == "" {
			n.first = e.Msg.Op.String() + "'s event took effect on " + n.topo.SinkName(sim.SinkID(e.Label)) +
				" at " + e.At.String() + " while its order was not committed"
		}
	}
}

// Violation implements sim.Invariant.
func (n *noPhantoms) Violation(bool) string {
	if n.phantoms == 0 {
		return ""
	}
	if n.phantoms == 1 {
		return n.first
	}
	return n.first + " (" + strconv.Itoa(int(n.phantoms)) + " phantom effects in all)"
}

// Clone implements sim.Invariant.
func (n *noPhantoms) Clone() sim.Invariant {
	c := *n
	c.committed = append([]bool(nil), n.committed...)
	return &c
}

// AppendState implements sim.Invariant.
func (n *noPhantoms) AppendState(b []byte) []byte {
	for _, c := range n.committed {
		if c {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return append(b, byte(min(n.phantoms, 255)))
}

var (
	outboxServiceRelay    = roles.Node("relay", "the outbox relay it notifies")
	outboxServiceBroker   = roles.Node("broker", "the broker a dual write publishes to")
	outboxServiceInterval = roles.Duration("interval", "100ms", "time between two orders")
	outboxServiceTimeout  = roles.Duration("timeout", "1s", "how long a dual write waits for the broker's ack before republishing")
	outboxServiceWrite    = roles.Enum("write", writeOutbox, writeValues, "outbox (one local transaction), commit-then-publish or publish-then-commit")
	outboxRelayService    = roles.Node("service", "the outbox-service whose outbox it reads")
	outboxRelayBroker     = roles.Node("broker", "where it publishes")
	outboxRelayTimeout    = roles.Duration("timeout", "1s", "how long it waits for the broker's ack before republishing")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "outbox-service",
		Doc:     "places one order per operation and announces it: transactional outbox + relay, or a dual write (commit-then-publish, publish-then-commit)",
		Options: []roles.Option{outboxServiceRelay, outboxServiceBroker, outboxServiceInterval, outboxServiceTimeout, outboxServiceWrite},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			s := &OutboxService{
				Relay: outboxServiceRelay.Get(a), Broker: outboxServiceBroker.Get(a),
				Interval: outboxServiceInterval.Get(a), Timeout: outboxServiceTimeout.Get(a),
				Write: outboxServiceWrite.Get(a),
			}
			return s, []sim.TableSpec{
				{Name: "orders", Durable: true, Traced: true, States: []string{"", "COMMITTED"}},
				{Name: "outbox", Durable: true, Traced: true, States: []string{"", "ORDER-PLACED"}},
				{Name: "started", Durable: true},
				{Name: "pending"},
				{Name: "epoch", Durable: true},
			}
		},
	})
	roles.Register(&roles.Role{
		Name:    "outbox-relay",
		Doc:     "publishes the service's outbox rows in order and keeps its position durable; republishes after a crash between publish and position",
		Options: []roles.Option{outboxRelayService, outboxRelayBroker, outboxRelayTimeout},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			r := &OutboxRelay{Service: outboxRelayService.Get(a), Broker: outboxRelayBroker.Get(a), Timeout: outboxRelayTimeout.Get(a)}
			return r, []sim.TableSpec{
				{Name: "position", Durable: true, Traced: true},
				{Name: "attempts", Durable: true},
				{Name: "state"},
			}
		},
	})
	roles.RegisterInvariant(&roles.InvariantSpec{
		Name: "no-phantom-events",
		Doc:  "no event takes effect downstream while the domain change it announces (an effect on orders) is not committed",
		New:  func(topo *sim.Topology) sim.Invariant { return newNoPhantoms(topo) },
	})
}
