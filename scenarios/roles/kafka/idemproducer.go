package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// IdemProducer is Kafka's producer writing one record per operation to
// Partitions partitions (operation n goes to partition (n-1) mod
// Partitions) over one connection, with up to MaxInFlight batches sent
// and not yet acknowledged (counted from the oldest unacknowledged one). It
// resends a batch until it is acknowledged
// (except under at-most-once: acks=0, sent once).
//
// Under the idempotent semantics every session gets a producer id and
// numbers each partition's batches 1, 2, 3… in the current epoch; a
// resend carries the same numbers. An OUT_OF_ORDER_SEQUENCE_NUMBER answer
// to a batch older than one already acknowledged on its partition is not
// a gap that a retry will fill: the producer's numbering and the leader's
// disagree, so it bumps its epoch, numbers every unacknowledged batch anew
// from 1 and resends them (as Kafka's producer does since KIP-360). If the
// leader had appended that batch and forgotten it — more than 5 batches
// ago, possible only with more than 5 in flight — the resend is appended
// again.
//
// Which operations are done survives a crash (the application's own
// durable state); the producer id, epoch and sequences do not: a restart
// is a new producer id, and its resends look new.
//
// Idempotence is enable.idempotence as the Java client resolves it
// (ProducerConfig.postProcessAndValidateIdempotenceConfigs): on by
// default, but switched off when it was left to its default and
// max.in.flight.requests.per.connection is above 5; set explicitly to true
// with more than 5 in flight, the client refuses the configuration (the
// role's New reports it, so the scenario is refused at load).
type IdemProducer struct {
	Broker      sim.NodeID
	Partitions  int64
	MaxInFlight int64
	Timeout     sim.Time
	Idempotence bool // enable.idempotence after the client's resolution
}

// maxInFlightForIdempotence is the client's cap on requests in flight for
// an idempotent producer.
const maxInFlightForIdempotence = 5

// idem reports whether this run's batches carry a producer id and
// sequence numbers: the idempotent semantics with idempotence enabled.
func (p *IdemProducer) idem(ctx *sim.Context) bool {
	return p.Idempotence && roles.Idempotent(ctx.Semantics())
}

const (
	ipOps     sim.TableID = iota // op → a pendingBatchRow
	ipSession                    // durable row 1: {Value: last producer id}
	ipEpoch                      // volatile row 1: {Value: current epoch}
	ipSeqs                       // volatile: partition → a partitionSeqRow
)

func idemProducerTables() []sim.TableSpec {
	return []sim.TableSpec{
		{Name: "batches", Durable: true, Traced: true, States: []string{"", "PENDING", "ACKED"}},
		{Name: "session", Durable: true},
		{Name: "epoch"},
		{Name: "sequences", Traced: true},
	}
}

func (p *IdemProducer) epoch(ctx *sim.Context) int64 {
	r, _ := ctx.Get(ipEpoch, 1, 0)
	return r.Value
}

func (p *IdemProducer) partition(op sim.OpID) int64 { return (int64(op) - 1) % p.Partitions }

func (p *IdemProducer) op(ctx *sim.Context, op sim.OpID) pendingBatchRow {
	r, _ := ctx.Get(ipOps, int64(op), op)
	return decodePendingBatchRow(r)
}

// Start opens a session under a new producer id, resends what a crash
// left unacknowledged and fills the in-flight window.
func (p *IdemProducer) Start(ctx *sim.Context) {
	s, _ := ctx.Get(ipSession, 1, 0)
	s.Value++
	ctx.Put(ipSession, 1, 0, s)
	ctx.Put(ipEpoch, 1, 0, sim.Record{Value: 0})
	p.resendPending(ctx)
	p.fill(ctx)
}

// resendPending numbers every unacknowledged batch anew and resends it.
func (p *IdemProducer) resendPending(ctx *sim.Context) {
	if ctx.Semantics() == sim.AtMostOnce {
		return
	}
	for op := sim.OpID(1); int(op) <= ctx.Ops(); op++ {
		if r := p.op(ctx, op); r.State == roles.OpPending {
			p.send(ctx, op, r.Attempt+1, true)
		}
	}
}

// fill starts new operations while the in-flight window has room. The
// window starts at the oldest unacknowledged batch: on one connection
// responses come back in order, so a batch sent after an unanswered one
// is still in flight even if its own answer came (the model's links can
// lose one answer and deliver the next; a TCP connection cannot).
func (p *IdemProducer) fill(ctx *sim.Context) {
	oldest := sim.OpID(0)
	for op := sim.OpID(1); int(op) <= ctx.Ops(); op++ {
		switch p.op(ctx, op).State {
		case roles.OpPending:
			if oldest == 0 {
				oldest = op
			}
		case 0:
			if oldest != 0 && int64(op-oldest) >= p.MaxInFlight {
				return
			}
			p.send(ctx, op, 1, true)
			if oldest == 0 && ctx.Semantics() != sim.AtMostOnce {
				oldest = op
			}
		}
	}
}

// send sends attempt of op. A fresh send (a first one, or a resend after
// an epoch bump) takes the partition's next sequence number.
func (p *IdemProducer) send(ctx *sim.Context, op sim.OpID, attempt int32, fresh bool) {
	r := p.op(ctx, op)
	b := batch{Op: op, Attempt: attempt, Partition: int32(p.partition(op))}
	if p.idem(ctx) {
		s, _ := ctx.Get(ipSession, 1, 0)
		epoch := p.epoch(ctx)
		if fresh || r.Epoch != epoch {
			q, _ := ctx.Get(ipSeqs, p.partition(op), op)
			seq := decodePartitionSeqRow(q)
			seq.Next++
			ctx.Put(ipSeqs, p.partition(op), op, seq.encode())
			r.Seq, r.Epoch = seq.Next, epoch
		}
		b.PID, b.Epoch, b.Seq = s.Value, r.Epoch, r.Seq
	}
	r.State, r.Attempt, r.At = roles.OpPending, attempt, 0
	if ctx.Semantics() == sim.AtMostOnce {
		r.State = roles.OpDone // acks=0: nothing to wait for
	}
	ctx.Put(ipOps, int64(op), op, r.encode())
	m := b.encode()
	ctx.Send(p.Broker, m)
	if ctx.CrashPoint(PointAfterBatch, &m) {
		return
	}
	roles.ArmRetry(ctx, p.Timeout, op, attempt)
}

// Timer resends a batch left unacknowledged.
func (p *IdemProducer) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != roles.TimerRetry {
		return
	}
	if r := p.op(ctx, t.Op); r.State == roles.OpPending && r.Attempt == t.Attempt {
		p.send(ctx, t.Op, t.Attempt+1, false)
	}
}

// Receive handles the leader's answer.
func (p *IdemProducer) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgBatchAck {
		return
	}
	a := decodeBatchAck(m)
	r := p.op(ctx, a.Op)
	if r.State != roles.OpPending {
		return
	}
	idem := p.idem(ctx)
	if idem && (a.Epoch != r.Epoch || a.Seq != r.Seq) {
		return // the answer to a numbering it has given up
	}
	part := p.partition(a.Op)
	q, _ := ctx.Get(ipSeqs, part, a.Op)
	seq := decodePartitionSeqRow(q)
	switch a.Err {
	case 0:
		r.State, r.At = roles.OpDone, 0
		ctx.Put(ipOps, int64(a.Op), a.Op, r.encode())
		if idem && r.Seq > seq.Acked {
			seq.Acked = r.Seq
			ctx.Put(ipSeqs, part, a.Op, seq.encode())
		}
		p.fill(ctx)
	case kafkaOutOfOrderSequence:
		if r.Seq < seq.Acked {
			// A later batch of this partition is acknowledged, so this
			// is no gap: the leader has lost track of it. Bump the epoch
			// and number everything unacknowledged anew.
			ctx.Put(ipEpoch, 1, 0, sim.Record{Value: p.epoch(ctx) + 1})
			for part := int64(0); part < p.Partitions; part++ {
				ctx.Delete(ipSeqs, part, 0)
			}
			p.resendPending(ctx)
		}
		// Otherwise an earlier batch is missing: the timer resends this one.
	}
}

// buildIdemproducer builds a kafka-idem-producer node from its options, each declared where it is read.
func buildIdemproducer(a *roles.Args) (sim.Node, []sim.TableSpec) {
	p := &IdemProducer{
		Broker:      a.Node("broker", "the partition leader (a kafka-partition-leader)"),
		Partitions:  a.Int("partitions", 2, 1, 99, "partitions the records are spread over (operation n to partition (n-1) mod partitions)"),
		MaxInFlight: a.Int("max-in-flight", 5, 1, 100, "max.in.flight.requests.per.connection: batches sent and not yet acknowledged"),
		Timeout:     a.PositiveDuration("timeout", "200ms", "how long it waits for an acknowledgement before resending"),
	}
	switch a.Enum("idempotence", "default", []string{"default", "true", "false"},
		"enable.idempotence under idem: default (on, but off when max-in-flight > 5, as the Java client resolves it), true (max-in-flight > 5 is refused), false") {
	case "true":
		if p.MaxInFlight > maxInFlightForIdempotence {
			a.Fail("max-in-flight", "To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most %d. Current value is %d. (the Java client's ConfigException with idempotence=true)",
				maxInFlightForIdempotence, p.MaxInFlight)
		}
		p.Idempotence = true
	case "default":
		p.Idempotence = p.MaxInFlight <= maxInFlightForIdempotence
	}
	return p, idemProducerTables()
}
