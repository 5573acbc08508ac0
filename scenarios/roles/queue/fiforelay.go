package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// FifoRelay is an outbox relay in front of an SQS FIFO queue: each order
// gets a durable outbox row when it is placed (at the operation's start
// time), and the relay sends it with SendMessage until the queue answers,
// then marks the row sent. A crash after the queue accepted a message and
// before the row is marked leaves it pending: the restarted relay sends it
// again — after its downtime, which may outlast the queue's 5-minute
// deduplication interval.
//
// With DedupID the send carries MessageDeduplicationId = the order id;
// without it the queue's content-based deduplication hashes the body. The
// body is the order's content without its id: the basket. Basket orders in
// a row share one (a customer who orders the same items again), so their
// bodies are equal.
//
// The outbox table and the relay are one node here: the order service's
// own commit is not the lesson (the outbox scenario is).
type FifoRelay struct {
	Queue    sim.NodeID
	Interval sim.Time
	Retry    sim.Time
	DedupID  bool
	Basket   int64
}

const (
	fifoOutbox sim.TableID = iota // op → fifoOutboxRow (durable: the outbox table)
	fifoEpoch                     // row 0: the first boot (the workload's time origin)
)

// Start places the orders not placed yet and, after a restart, sends every
// pending outbox row again.
func (r *FifoRelay) Start(ctx *sim.Context) {
	rows := ctx.Rows(fifoOutbox)
	for i := 0; i < rows.Len(); i++ {
		key, rec := rows.At(i)
		if row := decodeFifoOutboxRow(rec); row.State == roles.OpPending {
			r.send(ctx, sim.OpID(key), row.Attempt+1)
		}
	}
	workload{Table: fifoOutbox, Epoch: fifoEpoch, Interval: r.Interval}.schedule(ctx)
}

// body is order op's message body: its basket, shared by Basket orders in
// a row.
func (r *FifoRelay) body(op sim.OpID) int64 {
	return roles.Payload(sim.OpID((int64(op)-1)/max(r.Basket, 1) + 1))
}

// send sends order op's outbox row and waits Retry for the answer.
func (r *FifoRelay) send(ctx *sim.Context, op sim.OpID, attempt int32) {
	ctx.Put(fifoOutbox, int64(op), op, fifoOutboxRow{State: roles.OpPending, Attempt: attempt}.encode())
	msg := sendMessage{Body: r.body(op)}
	if r.DedupID {
		msg.DedupID = int64(op)
	}
	ctx.Send(r.Queue, msg.encode(envelope{Kind: MsgPublish, Op: op, Attempt: attempt}))
	ctx.After(r.Retry, sim.Timer{Kind: roles.TimerRetry, Op: op, Attempt: attempt})
}

// Timer places an order (its outbox row) or sends an unanswered row again.
func (r *FifoRelay) Timer(ctx *sim.Context, t sim.Timer) {
	roles.OpTimer(ctx, fifoOutbox, t, r.send)
}

// Receive marks an outbox row sent once the queue has answered.
func (r *FifoRelay) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPublishAck {
		return
	}
	rec, ok := ctx.Get(fifoOutbox, int64(m.Op), m.Op)
	if !ok || decodeFifoOutboxRow(rec).State != roles.OpPending {
		return
	}
	if ctx.CrashPoint(PointAfterPublish, &m) {
		return // accepted by the queue, not marked sent: sent again after the restart
	}
	ctx.Put(fifoOutbox, int64(m.Op), m.Op, fifoOutboxRow{State: roles.OpDone}.encode())
}

// buildFiforelay builds a fifo-relay node from its options, each declared where it is read.
func buildFiforelay(a *roles.Args) (sim.Node, []sim.TableSpec) {
	r := &FifoRelay{
		Queue:    a.Node("queue", "the SQS FIFO queue"),
		Interval: a.Duration("interval", "100ms", "time between two orders"),
		Retry:    a.PositiveDuration("retry", "1s", "how long it waits for SendMessage's answer before sending the row again"),
		DedupID: a.Enum("dedup-id", "order-id", []string{"order-id", "content"},
			"order-id: MessageDeduplicationId = the order id; content: none, the queue's content-based deduplication hashes the body") == "order-id",
		Basket: a.Int("basket", 1, 1, 1000, "how many orders in a row have the same body (the same basket ordered again); 1: every body differs"),
	}
	return r, []sim.TableSpec{
		{Name: "outbox", Durable: true, Traced: true, AgeFree: true, States: []string{"", "PENDING", "SENT"}},
		{Name: "epoch", Durable: true},
	}
}
