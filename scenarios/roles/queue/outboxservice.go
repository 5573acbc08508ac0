package queue

import (
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
	outboxRows                       // sequence → outboxRow (ORDER-PLACED): the outbox table
	outboxStarted                    // op → the request arrived (durable: survives restarts)
	outboxPending                    // op → attemptRow: dual-write publishes awaiting an ack (volatile)
	outboxEpoch                      // row 0: the first boot (the workload's time origin)
)

// Start schedules the requests not started yet. After a crash it also
// nudges the relay: an outbox row may have been committed but never
// announced, and a fetch of the relay's may have died with the service.
func (s *OutboxService) Start(ctx *sim.Context) {
	if s.Write == writeOutbox && ctx.Rows(outboxStarted).Len() > 0 {
		ctx.Send(s.Relay, envelope{Kind: MsgOutboxNotify}.Message())
	}
	workload{Table: outboxStarted, Epoch: outboxEpoch, Interval: s.Interval}.schedule(ctx)
}

// commitOrder writes the order row (and, with the outbox, the outbox row in
// the same local transaction).
func (s *OutboxService) commitOrder(ctx *sim.Context, op sim.OpID) {
	ctx.Put(outboxOrders, int64(op), op, placedOrderRow{Amount: roles.Payload(op)}.encode())
	if s.Write == writeOutbox {
		seq := int64(ctx.Rows(outboxRows).Len() + 1)
		ctx.Put(outboxRows, seq, op, outboxRow{Op: op, Record: roles.Payload(op)}.encode())
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
		if ok && decodeAttemptRow(r).Attempt == t.Attempt {
			s.publish(ctx, t.Op, t.Attempt+1)
		}
	}
}

func (s *OutboxService) place(ctx *sim.Context, op sim.OpID) {
	ctx.Put(outboxStarted, int64(op), op, sim.Record{})
	m := envelope{Op: op, Attempt: 1}.Message() // what the crash points name
	switch s.Write {
	case writeOutbox:
		s.commitOrder(ctx, op)
		if ctx.CrashPoint(PointAfterDBCommit, &m) {
			return
		}
		ctx.Send(s.Relay, envelope{Kind: MsgOutboxNotify, Op: op}.Message())
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
	ctx.Send(s.Broker, publish{Record: roles.Payload(op)}.encode(envelope{Kind: MsgPublish, Op: op, Attempt: attempt}))
	if ctx.Semantics() != sim.AtMostOnce {
		ctx.Put(outboxPending, int64(op), op, attemptRow{Attempt: attempt}.encode())
		ctx.After(s.Timeout, sim.Timer{Kind: roles.TimerRetry, Op: op, Attempt: attempt})
	}
}

// Receive answers the relay's fetches and the broker's acks.
func (s *OutboxService) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPublishAck:
		ctx.Delete(outboxPending, int64(m.Op), m.Op)
	case MsgOutboxFetch:
		seq := decodeFetch(m).Position
		r, ok := ctx.Get(outboxRows, seq, 0)
		if !ok {
			ctx.Send(m.From, fetched{Position: seq, Status: statusEndOfLog}.encode(envelope{Kind: MsgOutboxRow}))
			return
		}
		row := decodeOutboxRow(r)
		ctx.Send(m.From, fetched{Position: seq, Status: roles.StatusOK, Record: row.Record}.encode(envelope{Kind: MsgOutboxRow, Op: row.Op}))
	}
}

// buildOutboxservice builds a outbox-service node from its options, each declared where it is read.
func buildOutboxservice(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &OutboxService{
		Relay:    a.Node("relay", "the outbox relay it notifies"),
		Broker:   a.Node("broker", "the broker a dual write publishes to"),
		Interval: a.Duration("interval", "100ms", "time between two orders"),
		Timeout:  a.Duration("timeout", "1s", "how long a dual write waits for the broker's ack before republishing"),
		Write:    a.Enum("write", writeOutbox, writeValues, "outbox (one local transaction), commit-then-publish or publish-then-commit"),
	}
	return s, []sim.TableSpec{
		{Name: "orders", Durable: true, Traced: true, States: []string{"", "COMMITTED"}},
		{Name: "outbox", Durable: true, Traced: true, States: []string{"", "ORDER-PLACED"}},
		{Name: "started", Durable: true},
		{Name: "pending"},
		{Name: "epoch", Durable: true},
	}
}
