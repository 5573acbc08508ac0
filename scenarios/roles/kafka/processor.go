package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// KafkaProcessor is a read-process-write application: it consumes the
// input topic, writes one output record per input record, and records how
// far it got as the consumer group's committed position. It keeps nothing
// durable of its own — after a crash it asks the broker where its group
// stopped, exactly as a restarted Kafka consumer does.
//
// Under transactional semantics (Kafka exactly-once) it works in
// transactions of Batch records:
//
//	init-producer-id → offset-fetch → [add-partitions → (fetch → produce)×Batch
//	→ txn-offset-commit → end-txn(commit)]…
//
// The outputs and the consumed position are committed atomically by the
// coordinator's markers. A produce left unanswered past Timeout aborts the
// transaction (end-txn(abort)) and the processor seeks back to the
// committed position; any error that says its epoch is stale makes it
// re-register with init-producer-id, which aborts whatever it left open.
//
// Under at-least-once it is the classic loop: fetch → produce (resent
// until acknowledged, by a producer without sequence numbers) → after Batch
// records, commit the position. A crash between the produce and the
// commit, or a lost ack, reprocesses records.
//
// With DB set, every processed record is also written to an external
// database (autocommit) after its output is acknowledged — outside the
// transaction, which is the point of eos-without-sink-cooperation.
type KafkaProcessor struct {
	Broker      sim.NodeID
	Coordinator sim.NodeID
	DB          sim.NodeID
	HasDB       bool
	Batch       int64
	Timeout     sim.Time
}

// Processor phases: what it is waiting for.
const (
	kpInit          int32 = iota + 1 // producer-id
	kpOffsets                        // offsets
	kpAddParts                       // add-partitions-ok
	kpFetch                          // record
	kpProduce                        // produce-ack
	kpExternal                       // db-write-ack
	kpCommitOffsets                  // offset-commit-ack
	kpEndTxn                         // end-txn-result (commit)
	kpAbort                          // end-txn-result (abort)
	kpDone                           // every input record processed and committed
)

const (
	kpState      sim.TableID = iota // volatile: the three rows below
	kpConnection                    // durable row 1: {Value: last correlation id}
)

const (
	kpRun      int64 = 1 // {State: phase, Value: next input position, Status: records in this transaction, Aux: correlation id of the current wait}
	kpProducer int64 = 2 // {Value: producer id, Status: epoch, Aux: last sequence}
	kpCurrent  int64 = 3 // {Value: input offset, Aux: op, Status: attempt}
)

const kafkaTransactionalID = 1

func kafkaProcessorTables() []sim.TableSpec {
	// The correlation counter is durable for one reason: a restarted
	// process opens new connections, so answers to the old incarnation's
	// requests never reach it. Numbering requests across incarnations
	// gives the same guarantee over the simulator's shared links.
	return []sim.TableSpec{{Name: "processor"}, {Name: "connection", Durable: true}}
}

func (p *KafkaProcessor) row(ctx *sim.Context, key int64) sim.Record {
	r, _ := ctx.Get(kpState, key, 0)
	return r
}

func (p *KafkaProcessor) put(ctx *sim.Context, key int64, r sim.Record) {
	ctx.Put(kpState, key, 0, r)
}

func txnMode(ctx *sim.Context) bool { return ctx.Semantics() == sim.Transactional }

// Start registers the transactional id (transactional) or asks for the
// committed position (at-least-once).
func (p *KafkaProcessor) Start(ctx *sim.Context) {
	if txnMode(ctx) {
		p.request(ctx, kpInit)
		return
	}
	p.request(ctx, kpOffsets)
}

// wait enters phase with a new correlation id, which also invalidates the
// pending timeout, and returns it.
func (p *KafkaProcessor) wait(ctx *sim.Context, phase int32) int64 {
	c, _ := ctx.Get(kpConnection, 1, 0)
	c.Value++
	ctx.Put(kpConnection, 1, 0, c)
	r := p.row(ctx, kpRun)
	r.State = phase
	r.Aux = c.Value
	p.put(ctx, kpRun, r)
	return r.Aux
}

// request enters phase and sends its request, with a timeout.
func (p *KafkaProcessor) request(ctx *sim.Context, phase int32) {
	token := p.wait(ctx, phase)
	run, prod, cur := p.row(ctx, kpRun), p.row(ctx, kpProducer), p.row(ctx, kpCurrent)
	op := sim.OpID(cur.Aux)
	corr := int32(token) // correlation id: only the answer to this very request is accepted
	switch phase {
	case kpInit:
		ctx.Send(p.Coordinator, sim.Message{Kind: MsgKafkaInitPID, Key: kafkaTransactionalID, Attempt: corr})
	case kpOffsets:
		ctx.Send(p.Broker, sim.Message{Kind: MsgKafkaOffsetFetch, Key: kafkaGroup, Attempt: corr})
	case kpAddParts:
		ctx.Send(p.Coordinator, sim.Message{Kind: MsgKafkaAddParts, Key: prod.Value, Value: int64(prod.Status), Attempt: corr})
	case kpFetch:
		ctx.Send(p.Broker, sim.Message{Kind: MsgKafkaFetch, Key: run.Value, Payload: topicInput, Value: readCommitted})
	case kpProduce:
		m := sim.Message{Kind: MsgKafkaProduce, Op: op, Attempt: cur.Status}
		if txnMode(ctx) {
			m.Key, m.Value, m.Payload = prod.Value, int64(prod.Status), prod.Aux
		}
		ctx.Send(p.Broker, m)
	case kpCommitOffsets:
		if txnMode(ctx) {
			ctx.Send(p.Broker, sim.Message{Kind: MsgKafkaTxnOffsets, Key: prod.Value, Value: int64(prod.Status), Payload: run.Value, Attempt: corr})
		} else {
			ctx.Send(p.Broker, sim.Message{Kind: MsgKafkaOffsetCommit, Payload: run.Value, Attempt: corr})
		}
	case kpEndTxn, kpAbort:
		result := txnCommit
		if phase == kpAbort {
			result = txnAbort
		}
		ctx.Send(p.Coordinator, sim.Message{Kind: MsgKafkaEndTxn, Key: prod.Value, Value: int64(prod.Status), Payload: result, Attempt: corr})
	}
	ctx.After(p.Timeout, sim.Timer{Kind: TimerKafkaTimeout, Key: token, Op: op})
}

// backoff waits a little and then repeats the current request.
func (p *KafkaProcessor) backoff(ctx *sim.Context) {
	r := p.row(ctx, kpRun)
	token := p.wait(ctx, r.State)
	ctx.After(p.Timeout/4+1, sim.Timer{Kind: TimerKafkaTimeout, Key: token})
}

// Timer retries the request it waited for. An unanswered transactional
// produce is not retried: it aborts the transaction.
func (p *KafkaProcessor) Timer(ctx *sim.Context, t sim.Timer) {
	r := p.row(ctx, kpRun)
	if t.Kind != TimerKafkaTimeout || t.Key != r.Aux {
		return
	}
	switch r.State {
	case kpDone, kpExternal:
		return
	case kpProduce:
		if txnMode(ctx) {
			p.request(ctx, kpAbort)
			return
		}
		cur := p.row(ctx, kpCurrent)
		cur.Status++
		p.put(ctx, kpCurrent, cur)
	}
	p.request(ctx, r.State)
}

// begin starts the next transaction (or batch), or finishes.
func (p *KafkaProcessor) begin(ctx *sim.Context) {
	r := p.row(ctx, kpRun)
	r.Status = 0
	p.put(ctx, kpRun, r)
	switch {
	case r.Value > int64(ctx.Ops()):
		p.wait(ctx, kpDone)
	case txnMode(ctx):
		p.request(ctx, kpAddParts)
	default:
		p.request(ctx, kpFetch)
	}
}

// next fetches the next record, or commits when the batch is full.
func (p *KafkaProcessor) next(ctx *sim.Context) {
	r := p.row(ctx, kpRun)
	if int64(r.Status) < p.Batch && r.Value <= int64(ctx.Ops()) {
		p.request(ctx, kpFetch)
		return
	}
	if !txnMode(ctx) {
		// Outputs written, position not committed yet.
		if ctx.CrashPoint(PointKafkaBeforeCommit, nil) {
			return
		}
	}
	p.request(ctx, kpCommitOffsets)
}

// reinit re-registers after an error that says the epoch is stale.
func (p *KafkaProcessor) reinit(ctx *sim.Context) { p.request(ctx, kpInit) }

// Receive advances the loop on the answer it waits for and ignores every
// other message (late answers, network copies).
func (p *KafkaProcessor) Receive(ctx *sim.Context, m sim.Message) {
	r := p.row(ctx, kpRun)
	prod := p.row(ctx, kpProducer)
	if kafkaCorrelated(m.Kind) && int64(m.Attempt) != r.Aux {
		return // the answer to a request it already gave up on
	}
	switch m.Kind {
	case MsgKafkaProducerID:
		if r.State != kpInit {
			return
		}
		p.put(ctx, kpProducer, sim.Record{Value: m.Key, Status: int32(m.Value)})
		p.request(ctx, kpOffsets)
	case MsgKafkaOffsets:
		if r.State != kpOffsets {
			return
		}
		if m.Status == kafkaUnstableOffsetCommit {
			p.backoff(ctx)
			return
		}
		r.Value = max(m.Payload, 1)
		p.put(ctx, kpRun, r)
		p.begin(ctx)
	case MsgKafkaAddPartsOK:
		if r.State != kpAddParts || m.Payload != int64(prod.Status) {
			return
		}
		switch m.Status {
		case 0:
			p.request(ctx, kpFetch)
		case kafkaConcurrentTxns:
			p.backoff(ctx)
		default:
			p.reinit(ctx)
		}
	case MsgKafkaRecord:
		if r.State != kpFetch || m.Payload != topicInput || m.Key != r.Value {
			return
		}
		p.put(ctx, kpCurrent, sim.Record{Value: m.Key, Aux: int64(m.Op), Status: m.Attempt})
		if txnMode(ctx) {
			prod.Aux++
			p.put(ctx, kpProducer, prod)
		}
		p.request(ctx, kpProduce)
		// The output is on its way; its transaction is not committed.
		if ctx.CrashPoint(PointKafkaAfterProduce, &m) {
			return
		}
	case MsgKafkaProduceAck:
		cur := p.row(ctx, kpCurrent)
		if r.State != kpProduce || m.Op != sim.OpID(cur.Aux) {
			return
		}
		if txnMode(ctx) && (m.Value != int64(prod.Status) || m.Payload != prod.Aux) {
			return
		}
		if m.Status != 0 && m.Status != kafkaDuplicateSequence {
			p.reinit(ctx)
			return
		}
		p.produced(ctx)
	case MsgDBWriteAck:
		cur := p.row(ctx, kpCurrent)
		if r.State != kpExternal || m.Op != sim.OpID(cur.Aux) {
			return
		}
		// The external row is written; the transaction is not committed.
		if ctx.CrashPoint(PointKafkaAfterExternal, &m) {
			return
		}
		p.next(ctx)
	case MsgKafkaOffsetAck:
		if r.State != kpCommitOffsets {
			return
		}
		if !txnMode(ctx) {
			if m.Payload == r.Value {
				p.begin(ctx)
			}
			return
		}
		if m.Value != int64(prod.Status) || m.Payload != r.Value {
			return
		}
		if m.Status != 0 {
			p.reinit(ctx)
			return
		}
		// Outputs and position are in the transaction; it is not committed.
		if ctx.CrashPoint(PointKafkaBeforeCommit, nil) {
			return
		}
		p.request(ctx, kpEndTxn)
	case MsgKafkaEndTxnResult:
		if (r.State != kpEndTxn && r.State != kpAbort) || m.Payload != int64(prod.Status) {
			return
		}
		if m.Status != 0 {
			p.reinit(ctx)
			return
		}
		p.put(ctx, kpProducer, sim.Record{Value: prod.Value, Status: int32(m.Value)})
		if r.State == kpEndTxn {
			p.begin(ctx)
			return
		}
		p.request(ctx, kpOffsets) // aborted: seek back to the committed position
	}
}

// kafkaCorrelated reports whether answers of kind k echo the request's
// correlation id (in Attempt), as Kafka matches responses to requests.
func kafkaCorrelated(k sim.MsgKind) bool {
	switch k {
	case MsgKafkaProducerID, MsgKafkaOffsets, MsgKafkaAddPartsOK, MsgKafkaOffsetAck, MsgKafkaEndTxnResult:
		return true
	}
	return false
}

// produced moves past an acknowledged output record.
func (p *KafkaProcessor) produced(ctx *sim.Context) {
	r := p.row(ctx, kpRun)
	r.Value++
	r.Status++
	p.put(ctx, kpRun, r)
	if !p.HasDB {
		p.next(ctx)
		return
	}
	cur := p.row(ctx, kpCurrent)
	p.wait(ctx, kpExternal)
	ctx.Send(p.DB, sim.Message{Kind: MsgDBWrite, Op: sim.OpID(cur.Aux), Attempt: cur.Status, Payload: cur.Aux})
}

var (
	kafkaProcessorBroker      = roles.Node("broker", "the partition leader")
	kafkaProcessorCoordinator = roles.Node("coordinator", "the transaction coordinator")
	kafkaProcessorDB          = roles.OptionalNode("db", "an external database also written for every record (outside the transaction)")
	kafkaProcessorBatch       = roles.Int("batch", 2, 1, 100, "input records per transaction (or per offset commit)")
	kafkaProcessorTimeout     = roles.PositiveDuration("timeout", "1s", "how long it waits for an answer; an unanswered transactional produce aborts the transaction")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "kafka-processor",
		Doc:     "read-process-write: consumes the input topic, produces one output per record; transactional under txn, process-then-commit under alo",
		Options: []roles.Option{kafkaProcessorBroker, kafkaProcessorCoordinator, kafkaProcessorDB, kafkaProcessorBatch, kafkaProcessorTimeout},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			p := &KafkaProcessor{
				Broker: kafkaProcessorBroker.Get(a), Coordinator: kafkaProcessorCoordinator.Get(a),
				Batch: kafkaProcessorBatch.Get(a), Timeout: kafkaProcessorTimeout.Get(a),
			}
			p.DB, p.HasDB = kafkaProcessorDB.Get(a)
			return p, kafkaProcessorTables()
		},
	})
}
