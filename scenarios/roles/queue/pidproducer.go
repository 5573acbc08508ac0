package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// PIDProducer publishes one record per operation to a PIDBroker and
// republishes it until the broker acknowledges it (except under
// at-most-once, where it publishes once).
//
// Under the idempotent semantics it is Kafka's idempotent producer: every
// session gets a producer id (standing in for InitProducerId: a fresh id
// per start, taken from a durable counter) and numbers its records 1, 2, 3…
// A republish carries the same producer id and sequence number as the
// first publish, so the broker can recognise it. The numbering is per
// session: after a crash the producer republishes what was not
// acknowledged under a new id, with new numbers — and the broker, which
// cannot tell those from new records, appends them again.
//
// Which operations are pending survives a crash (the application's own
// durable state); the producer id and the sequence numbers of a session do
// not carry over to the next.
type PIDProducer struct {
	Broker   sim.NodeID
	Interval sim.Time
	Timeout  sim.Time
}

const (
	pidProducerOps     sim.TableID = iota // op → opRow
	pidProducerSession                    // row 0: sessionRow
	pidProducerEpoch                      // row 0: the first boot (the workload's time origin)
)

// Start opens a session under a new producer id, republishes what a crash
// left unacknowledged and schedules the operations not started yet.
func (p *PIDProducer) Start(ctx *sim.Context) {
	rec, _ := ctx.Get(pidProducerSession, 0, 0)
	s := decodeSessionRow(rec)
	s.ProducerID++     // a new producer id for a new session
	s.LastSequence = 0 // whose sequence numbers start again at 1
	s.At = 0
	ctx.Put(pidProducerSession, 0, 0, s.encode())
	if ctx.Semantics() != sim.AtMostOnce {
		ops := ctx.Rows(pidProducerOps)
		for i := 0; i < ops.Len(); i++ {
			key, r := ops.At(i)
			if r := decodeOpRow(r); r.State == roles.OpPending {
				p.publish(ctx, sim.OpID(key), r.Attempt+1, true)
			}
		}
	}
	workload{Table: pidProducerOps, Epoch: pidProducerEpoch, Interval: p.Interval}.schedule(ctx)
}

// publish sends attempt of op. A first publish of op in this session
// (fresh) takes the next sequence number; a retry reuses it.
func (p *PIDProducer) publish(ctx *sim.Context, op sim.OpID, attempt int32, fresh bool) {
	rec, _ := ctx.Get(pidProducerOps, int64(op), op)
	r := decodeOpRow(rec)
	pub := publish{Record: roles.Payload(op)}
	if roles.Idempotent(ctx.Semantics()) {
		srec, _ := ctx.Get(pidProducerSession, 0, op)
		s := decodeSessionRow(srec)
		if fresh {
			s.LastSequence++
			ctx.Put(pidProducerSession, 0, op, s.encode())
			r.Sequence = s.LastSequence
		}
		pub.ProducerID, pub.Sequence = s.ProducerID, r.Sequence
	}
	r.State, r.Attempt = roles.OpPending, attempt
	ctx.Put(pidProducerOps, int64(op), op, r.encode())
	m := pub.encode(envelope{Kind: MsgPublish, Op: op, Attempt: attempt})
	ctx.Send(p.Broker, m)
	if ctx.CrashPoint(PointAfterSend, &m) {
		return
	}
	if ctx.Semantics() != sim.AtMostOnce {
		ctx.After(p.Timeout, sim.Timer{Kind: roles.TimerRetry, Op: op, Attempt: attempt})
	}
}

// Timer starts or retries a publish.
func (p *PIDProducer) Timer(ctx *sim.Context, t sim.Timer) {
	switch t.Kind {
	case roles.TimerStartOp:
		p.publish(ctx, t.Op, 1, true)
	case roles.TimerRetry:
		r, ok := ctx.Get(pidProducerOps, int64(t.Op), t.Op)
		if row := decodeOpRow(r); ok && row.State == roles.OpPending && row.Attempt == t.Attempt {
			p.publish(ctx, t.Op, t.Attempt+1, false)
		}
	}
}

// Receive marks an operation acknowledged. A rejected publish (out of
// order: an earlier sequence number has not arrived yet) stays pending and
// is retried by its timer.
func (p *PIDProducer) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPublishAck || decodePublishAck(m).Status == roles.StatusConflict {
		return
	}
	roles.FinishOp(ctx, pidProducerOps, m.Op)
}

// pid-producer shares producer's interval and timeout options.
var pidProducerBroker = roles.Node("broker", "the broker (a pid-broker)")

func init() {
	roles.Register(&roles.Role{
		Name:    "pid-producer",
		Doc:     "publishes one record per operation; under idem with a producer id and sequence numbers (Kafka's idempotent producer), a new id per session",
		Options: []roles.Option{pidProducerBroker, producerInterval, producerTimeout},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			p := &PIDProducer{Broker: pidProducerBroker.Get(a), Interval: producerInterval.Get(a), Timeout: producerTimeout.Get(a)}
			return p, []sim.TableSpec{{Name: "ops", Durable: true}, {Name: "session", Durable: true}, {Name: "epoch", Durable: true}}
		},
	})
}
