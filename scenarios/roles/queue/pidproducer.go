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
	pidProducerOps     sim.TableID = iota // op → {State: pending/done, Value: attempt, Aux: sequence number}
	pidProducerSession                    // row 0: {Value: producer id, Aux: last sequence number issued}
	pidProducerEpoch                      // row 0: the first boot (the workload's time origin)
)

// Start opens a session under a new producer id, republishes what a crash
// left unacknowledged and schedules the operations not started yet.
func (p *PIDProducer) Start(ctx *sim.Context) {
	s, _ := ctx.Get(pidProducerSession, 0, 0)
	s.Value++ // a new producer id for a new session
	s.Aux = 0 // whose sequence numbers start again at 1
	s.At = 0
	ctx.Put(pidProducerSession, 0, 0, s)
	if ctx.Semantics() != sim.AtMostOnce {
		ops := ctx.Rows(pidProducerOps)
		for i := 0; i < ops.Len(); i++ {
			key, r := ops.At(i)
			if r.State == roles.OpPending {
				p.publish(ctx, sim.OpID(key), int32(r.Value)+1, true)
			}
		}
	}
	workload{Table: pidProducerOps, Epoch: pidProducerEpoch, Interval: p.Interval}.schedule(ctx)
}

// publish sends attempt of op. A first publish of op in this session
// (fresh) takes the next sequence number; a retry reuses it.
func (p *PIDProducer) publish(ctx *sim.Context, op sim.OpID, attempt int32, fresh bool) {
	r, _ := ctx.Get(pidProducerOps, int64(op), op)
	m := sim.Message{Kind: MsgPublish, Op: op, Attempt: attempt, Payload: roles.Payload(op)}
	if roles.Idempotent(ctx.Semantics()) {
		s, _ := ctx.Get(pidProducerSession, 0, op)
		if fresh {
			s.Aux++
			ctx.Put(pidProducerSession, 0, op, s)
			r.Aux = s.Aux
		}
		m.Value, m.Key = s.Value, r.Aux // producer id, sequence number
	}
	r.State, r.Value = roles.OpPending, int64(attempt)
	ctx.Put(pidProducerOps, int64(op), op, r)
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
		if ok && r.State == roles.OpPending && r.Value == int64(t.Attempt) {
			p.publish(ctx, t.Op, t.Attempt+1, false)
		}
	}
}

// Receive marks an operation acknowledged. A rejected publish (out of
// order: an earlier sequence number has not arrived yet) stays pending and
// is retried by its timer.
func (p *PIDProducer) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPublishAck || m.Status == roles.StatusConflict {
		return
	}
	r, ok := ctx.Get(pidProducerOps, int64(m.Op), m.Op)
	if ok && r.State == roles.OpPending {
		r.State = roles.OpDone
		ctx.Put(pidProducerOps, int64(m.Op), m.Op, r)
	}
}

// PIDBroker is a partition leader's log. Every record it appends is an
// effect on log-records. A publish without a producer id is appended
// whatever it is; one with a producer id goes through Kafka's sequence
// check, kept per producer id in a durable table:
//
//   - sequence = last + 1: appended (201), last advances;
//   - sequence ≤ last: a duplicate of a record already in the log —
//     acknowledged (200) and not appended;
//   - sequence > last + 1: out of order, an earlier record is missing —
//     rejected (409); the producer retries.
//
// Under at-most-once a network copy of one publish is dropped by the
// transport, as TCP would.
type PIDBroker struct{}

const (
	pidBrokerLog       sim.TableID = iota // offset → {Value: op, Aux: producer id, Status: sequence}
	pidBrokerProducers                    // producer id → {Value: last sequence appended, Aux: its offset}
	pidBrokerSeen                         // (op, attempt) publishes seen: at-most-once transport dedup
)

// Start does nothing: the broker is driven by publishes.
func (b *PIDBroker) Start(*sim.Context) {}

// Timer is unused.
func (b *PIDBroker) Timer(*sim.Context, sim.Timer) {}

// Receive appends, deduplicates or rejects a publish.
func (b *PIDBroker) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPublish {
		return
	}
	if ctx.Semantics() == sim.AtMostOnce && transportDup(ctx, pidBrokerSeen, opAttemptKey(m.Op, m.Attempt), m.Op) {
		return
	}
	if pid := m.Value; pid != 0 {
		p, _ := ctx.Get(pidBrokerProducers, pid, m.Op)
		switch {
		case m.Key <= p.Value:
			b.ack(ctx, m, roles.StatusOK, 0) // a duplicate: already in the log
			return
		case m.Key > p.Value+1:
			b.ack(ctx, m, roles.StatusConflict, 0) // out of order
			return
		}
		offset := b.append(ctx, m)
		ctx.Put(pidBrokerProducers, pid, m.Op, sim.Record{Value: m.Key, Aux: offset})
		b.ack(ctx, m, roles.StatusCreated, offset)
		return
	}
	b.ack(ctx, m, roles.StatusCreated, b.append(ctx, m))
}

func (b *PIDBroker) append(ctx *sim.Context, m sim.Message) int64 {
	offset := int64(ctx.Rows(pidBrokerLog).Len() + 1)
	ctx.Put(pidBrokerLog, offset, m.Op, sim.Record{Value: int64(m.Op), Aux: m.Value, Status: int32(m.Key)})
	ctx.Effect(SinkLogRecords, m.Op, offset)
	return offset
}

func (b *PIDBroker) ack(ctx *sim.Context, m sim.Message, status int32, offset int64) {
	ctx.Send(m.From, sim.Message{Kind: MsgPublishAck, Op: m.Op, Attempt: m.Attempt, Key: m.Key, Value: offset, Status: status})
}

var (
	pidProducerBroker   = roles.Node("broker", "the broker (a pid-broker)")
	pidProducerInterval = roles.Duration("interval", "100ms", "time between two publishes")
	pidProducerTimeout  = roles.Duration("timeout", "1s", "how long it waits for the ack before republishing")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "pid-producer",
		Doc:     "publishes one record per operation; under idem with a producer id and sequence numbers (Kafka's idempotent producer), a new id per session",
		Options: []roles.Option{pidProducerBroker, pidProducerInterval, pidProducerTimeout},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			p := &PIDProducer{Broker: pidProducerBroker.Get(a), Interval: pidProducerInterval.Get(a), Timeout: pidProducerTimeout.Get(a)}
			return p, []sim.TableSpec{{Name: "ops", Durable: true}, {Name: "session", Durable: true}, {Name: "epoch", Durable: true}}
		},
	})
	roles.Register(&roles.Role{
		Name: "pid-broker",
		Doc:  "a log that appends every publish (an effect on log-records) and deduplicates by producer id and sequence number when a publish carries them",
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &PIDBroker{}, []sim.TableSpec{
				{Name: "log", Durable: true},
				{Name: "producers", Durable: true, Traced: true},
				{Name: "seen", Durable: true},
			}
		},
	})
}
