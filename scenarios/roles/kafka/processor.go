package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Processor is a read-process-write application: it consumes the
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
type Processor struct {
	Broker      sim.NodeID
	Coordinator sim.NodeID
	DB          sim.NodeID
	HasDB       bool
	Batch       int64
	Timeout     sim.Time
	Heartbeat   sim.Time // 0: no consumer group protocol (it owns the input from the start)
	// OffsetsOutside commits the consumed offsets outside the transaction
	// (commitSync after commitTransaction) instead of sending them into it
	// (sendOffsetsToTransaction): a crash between the two replays records
	// whose outputs are already committed.
	OffsetsOutside bool
	// SharedTxnID gives every instance the same transactional id, one per
	// input partition (the design before KIP-447, Kafka Streams' EOS v1):
	// a new owner's registration fences the old one by epoch. Otherwise
	// each instance has its own id (KIP-447) and the consumer group fences
	// a zombie's offsets by generation.
	SharedTxnID bool
	// FreshTxnID registers a new transactional id at every start (one
	// derived from a pod name that changes with each restart): nobody
	// registers the old id again, so what a crashed incarnation left open
	// ends only by the coordinator's transaction timeout.
	FreshTxnID bool
	// NoGroupMetadata sends the consumed offsets into the transaction with
	// the group id only (sendOffsetsToTransaction(offsets, groupId), or
	// new ConsumerGroupMetadata(groupId)): no member, generation -1, so the
	// group coordinator has nothing to check.
	NoGroupMetadata bool
	// Others is how many operations other producers write (the last ones
	// of the run): it processes the input topic, which holds the rest.
	Others int64
	// CountOf, when set, is the aggregate written with an operation's
	// output record (a Kafka Streams task's state store: the record is
	// also its changelog entry).
	CountOf func(ctx *sim.Context, op sim.OpID) int32
}

// inputs is how many records the input topic holds.
func (p *Processor) inputs(ctx *sim.Context) int64 { return int64(ctx.Ops()) - othersOf(ctx, p.Others) }

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
	kpJoin                           // assignment (answer to join-group)
	kpStandby                        // assignment (a rebalance hands it the partition)
)

const (
	kpState      sim.TableID = iota // volatile: the three rows below
	kpConnection                    // durable row 1: {Value: last correlation id}
)

const (
	kpRun      int64 = 1 // a runRow
	kpProducer int64 = 2 // a clientRow
	kpCurrent  int64 = 3 // a currentRow
)

// kafkaTransactionalID is the shared transactional id of the input
// partition; an instance's own id is kafkaTransactionalID + its node index.
const kafkaTransactionalID = 1

// txnID is the transactional id the processor registers.
func (p *Processor) txnID(ctx *sim.Context) int64 {
	if p.SharedTxnID {
		return kafkaTransactionalID
	}
	id := kafkaTransactionalID + int64(ctx.Self())
	if p.FreshTxnID {
		inc, _ := ctx.Get(kpConnection, kpIncarnation, 0)
		id += 1000 * inc.Value
	}
	return id
}

// kpIncarnation is the connection table's row counting the processor's
// starts (FreshTxnID).
const kpIncarnation int64 = 2

func kafkaProcessorTables() []sim.TableSpec {
	// The correlation counter is durable for one reason: a restarted
	// process opens new connections, so answers to the old incarnation's
	// requests never reach it. Numbering requests across incarnations
	// gives the same guarantee over the simulator's shared links.
	return []sim.TableSpec{{Name: "processor"}, {Name: "connection", Durable: true}}
}

func (p *Processor) run(ctx *sim.Context) runRow {
	r, _ := ctx.Get(kpState, kpRun, 0)
	return decodeRunRow(r)
}

func (p *Processor) client(ctx *sim.Context) clientRow {
	r, _ := ctx.Get(kpState, kpProducer, 0)
	return decodeClientRow(r)
}

func (p *Processor) current(ctx *sim.Context) currentRow {
	r, _ := ctx.Get(kpState, kpCurrent, 0)
	return decodeCurrentRow(r)
}

func (p *Processor) put(ctx *sim.Context, key int64, r sim.Record) {
	ctx.Put(kpState, key, 0, r)
}

func txnMode(ctx *sim.Context) bool { return ctx.Semantics() == sim.Transactional }

// Start joins the group (with a Heartbeat), or starts working.
func (p *Processor) Start(ctx *sim.Context) {
	if p.FreshTxnID {
		inc, _ := ctx.Get(kpConnection, kpIncarnation, 0)
		inc.Value++
		ctx.Put(kpConnection, kpIncarnation, 0, inc)
	}
	if p.grouped() {
		p.request(ctx, kpJoin)
		return
	}
	p.work(ctx)
}

// work registers the transactional id (transactional) or asks for the
// committed position (at-least-once).
func (p *Processor) work(ctx *sim.Context) {
	if txnMode(ctx) {
		p.request(ctx, kpInit)
		return
	}
	p.request(ctx, kpOffsets)
}

// wait enters phase with a new correlation id, which also invalidates the
// pending timeout, and returns it.
func (p *Processor) wait(ctx *sim.Context, phase int32) int64 {
	c, _ := ctx.Get(kpConnection, 1, 0)
	c.Value++
	ctx.Put(kpConnection, 1, 0, c)
	r := p.run(ctx)
	r.Phase = phase
	r.Corr = c.Value
	p.put(ctx, kpRun, r.encode())
	return r.Corr
}

// request enters phase and sends its request, with a timeout.
func (p *Processor) request(ctx *sim.Context, phase int32) {
	token := p.wait(ctx, phase)
	run, prod, cur := p.run(ctx), p.client(ctx), p.current(ctx)
	corr := int32(token) // correlation id: only the answer to this very request is accepted
	epoch := int64(prod.Epoch)
	switch phase {
	case kpJoin:
		ctx.Send(p.Broker, joinGroup{Corr: corr}.encode())
	case kpInit:
		ctx.Send(p.Coordinator, initPID{TxnID: p.txnID(ctx), Corr: corr}.encode())
	case kpOffsets:
		ctx.Send(p.Broker, offsetFetch{Group: kafkaGroup, Corr: corr}.encode())
	case kpAddParts:
		ctx.Send(p.Coordinator, addParts{PID: prod.PID, Epoch: epoch, Corr: corr}.encode())
	case kpFetch:
		ctx.Send(p.Broker, fetch{Position: run.Position, Topic: topicInput, Isolation: readCommitted}.encode())
	case kpProduce:
		m := produce{Op: cur.Op, Attempt: cur.Attempt}
		if p.CountOf != nil {
			m.Count = p.CountOf(ctx, cur.Op)
		}
		if txnMode(ctx) {
			m.PID, m.Epoch, m.Seq = prod.PID, epoch, prod.Seq
		}
		ctx.Send(p.Broker, m.encode())
	case kpCommitOffsets:
		gen := p.generation(ctx)
		if txnMode(ctx) && !p.OffsetsOutside {
			if p.NoGroupMetadata {
				gen = -1 // no member, no generation: nothing for the group to check
			}
			ctx.Send(p.Broker, txnOffsets{PID: prod.PID, Epoch: epoch, Position: run.Position, Corr: corr, Generation: int32(gen)}.encode())
		} else {
			ctx.Send(p.Broker, offsetCommit{Position: run.Position, Corr: corr, Generation: gen}.encode())
		}
	case kpEndTxn, kpAbort:
		ctx.Send(p.Coordinator, endTxnFor(prod, phase, corr))
	}
	ctx.After(p.Timeout, sim.Timer{Kind: TimerTimeout, Key: token, Op: cur.Op})
}

// backoff waits a little and then repeats the current request.
func (p *Processor) backoff(ctx *sim.Context) {
	token := p.wait(ctx, p.run(ctx).Phase)
	ctx.After(p.Timeout/4+1, sim.Timer{Kind: TimerTimeout, Key: token})
}

// Timer retries the request it waited for. An unanswered transactional
// produce is not retried: it aborts the transaction.
func (p *Processor) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind == TimerHeartbeat {
		p.beat(ctx, t)
		return
	}
	r := p.run(ctx)
	if t.Kind != TimerTimeout || t.Key != r.Corr {
		return
	}
	switch r.Phase {
	case kpDone, kpExternal, kpStandby:
		return
	case kpProduce:
		if txnMode(ctx) {
			p.request(ctx, kpAbort)
			return
		}
		cur := p.current(ctx)
		cur.Attempt++
		p.put(ctx, kpCurrent, cur.encode())
	}
	p.request(ctx, r.Phase)
}

// begin starts the next transaction (or batch), or finishes. It is the
// loop's poll: a member that has learnt it lost the partition rejoins here.
func (p *Processor) begin(ctx *sim.Context) {
	if p.grouped() && p.lost(ctx) {
		p.rejoin(ctx)
		return
	}
	r := p.run(ctx)
	r.InTxn = 0
	p.put(ctx, kpRun, r.encode())
	switch {
	case r.Position > p.inputs(ctx):
		p.wait(ctx, kpDone)
		if p.grouped() {
			p.leave(ctx)
		}
	case txnMode(ctx):
		p.request(ctx, kpAddParts)
	default:
		p.request(ctx, kpFetch)
	}
}

// next fetches the next record, or commits when the batch is full.
func (p *Processor) next(ctx *sim.Context) {
	r := p.run(ctx)
	if int64(r.InTxn) < p.Batch && r.Position <= p.inputs(ctx) {
		p.request(ctx, kpFetch)
		return
	}
	if txnMode(ctx) && p.OffsetsOutside {
		p.request(ctx, kpEndTxn) // the offsets follow the commit, outside it
		return
	}
	if !txnMode(ctx) {
		// Outputs written, position not committed yet.
		if ctx.CrashPoint(PointBeforeCommit, nil) {
			return
		}
	}
	p.request(ctx, kpCommitOffsets)
}

// reinit re-registers after an error that says the epoch is stale — or,
// in a group, rejoins: a stale epoch there means another member took the
// partition over, and registering again would fence that member.
func (p *Processor) reinit(ctx *sim.Context) {
	if p.grouped() {
		p.rejoin(ctx)
		return
	}
	p.request(ctx, kpInit)
}

// Receive advances the loop on the answer it waits for and ignores every
// other message (late answers, network copies).
func (p *Processor) Receive(ctx *sim.Context, m sim.Message) {
	if p.grouped() && p.memberReceive(ctx, m) {
		return
	}
	r := p.run(ctx)
	prod := p.client(ctx)
	if kafkaCorrelated(m.Kind) && int64(m.Attempt) != r.Corr {
		return // the answer to a request it already gave up on
	}
	epoch := int64(prod.Epoch)
	switch m.Kind {
	case MsgProducerID:
		if r.Phase != kpInit {
			return
		}
		a := decodeProducerID(m)
		p.put(ctx, kpProducer, clientRow{PID: a.PID, Epoch: int32(a.Epoch)}.encode())
		p.request(ctx, kpOffsets)
	case MsgOffsets:
		if r.Phase != kpOffsets {
			return
		}
		a := decodeOffsets(m)
		if a.Err == kafkaUnstableOffsetCommit {
			p.backoff(ctx)
			return
		}
		r.Position = max(a.Position, 1)
		p.put(ctx, kpRun, r.encode())
		p.begin(ctx)
	case MsgAddPartsOK:
		a := decodeAddPartsOK(m)
		if r.Phase != kpAddParts || a.Epoch != epoch {
			return
		}
		switch a.Err {
		case 0:
			p.request(ctx, kpFetch)
		case kafkaConcurrentTxns:
			p.backoff(ctx)
		default:
			p.reinit(ctx)
		}
	case MsgRecord:
		rec := decodeRecord(m)
		if r.Phase != kpFetch || rec.Topic != topicInput || rec.Offset != r.Position {
			return
		}
		p.put(ctx, kpCurrent, currentRow{Offset: rec.Offset, Op: rec.Op, Attempt: rec.Delivery}.encode())
		if txnMode(ctx) {
			prod.Seq++
			p.put(ctx, kpProducer, prod.encode())
		}
		// Only a group member offers this point (the scenarios without a
		// group keep their crash points): frozen here, it sends the
		// produce when it wakes up — a zombie's write.
		if p.grouped() && ctx.CrashPoint(PointBeforeProduce, &m) {
			return
		}
		p.request(ctx, kpProduce)
		// The output is on its way; its transaction is not committed.
		if ctx.CrashPoint(PointAfterProduce, &m) {
			return
		}
	case MsgProduceAck:
		a := decodeProduceAck(m)
		if r.Phase != kpProduce || a.Op != p.current(ctx).Op {
			return
		}
		if txnMode(ctx) && (a.Epoch != epoch || a.Seq != prod.Seq || a.Attempt != p.current(ctx).Attempt) {
			// Not the answer to this very produce: one of an earlier
			// delivery, or of an earlier incarnation whose fresh producer
			// id started at the same epoch and sequence.
			return
		}
		if a.Err != 0 {
			p.reinit(ctx)
			return
		}
		p.produced(ctx)
	case MsgDBWriteAck:
		if r.Phase != kpExternal || DecodeDBWriteAck(m).Op != p.current(ctx).Op {
			return
		}
		// The external row is written; the transaction is not committed.
		if ctx.CrashPoint(PointAfterExternal, &m) {
			return
		}
		p.next(ctx)
	case MsgOffsetAck:
		if r.Phase != kpCommitOffsets {
			return
		}
		a := decodeOffsetAck(m)
		if !txnMode(ctx) || p.OffsetsOutside {
			switch {
			case a.Err != 0:
				p.reinit(ctx) // the group moved on: rejoin
			case a.Position == r.Position:
				p.begin(ctx)
			}
			return
		}
		if a.Epoch != epoch || a.Position != r.Position {
			return
		}
		if a.Err == kafkaIllegalGeneration || a.Err == kafkaUnknownMemberID {
			// The group has moved on: the partition is someone else's.
			// An abortable error (CommitFailedException): abort, then rejoin.
			p.setLost(ctx)
			p.request(ctx, kpAbort)
			return
		}
		if a.Err != 0 {
			p.reinit(ctx)
			return
		}
		// Outputs and position are in the transaction; it is not committed.
		if ctx.CrashPoint(PointBeforeCommit, nil) {
			return
		}
		p.request(ctx, kpEndTxn)
	case MsgEndTxnResult:
		next, answered, failed := endTxnOutcome(m, r.Phase, prod)
		if !answered {
			return
		}
		if failed {
			p.reinit(ctx)
			return
		}
		p.put(ctx, kpProducer, next.encode())
		if r.Phase == kpEndTxn && p.OffsetsOutside {
			// Outputs committed, position not committed yet.
			if ctx.CrashPoint(PointBeforeCommit, nil) {
				return
			}
			p.request(ctx, kpCommitOffsets)
			return
		}
		if r.Phase == kpEndTxn {
			p.begin(ctx)
			return
		}
		if p.grouped() && p.lost(ctx) {
			p.rejoin(ctx) // aborted after losing the partition
			return
		}
		// Aborted, nothing written since. Only a processor that comes back
		// under a new transactional id offers this point: dying here leaves
		// the old producer id's last word on the partition an abort of the
		// same epoch (transactions v1) — a late write of it still fits.
		if p.FreshTxnID && ctx.CrashPoint(PointAfterAbort, &m) {
			return
		}
		p.request(ctx, kpOffsets) // aborted: seek back to the committed position
	}
}

// kafkaCorrelated reports whether answers of kind k echo the request's
// correlation id (in Attempt), as Kafka matches responses to requests.
func kafkaCorrelated(k sim.MsgKind) bool {
	switch k {
	case MsgProducerID, MsgOffsets, MsgAddPartsOK, MsgOffsetAck, MsgEndTxnResult:
		return true
	}
	return false
}

// produced moves past an acknowledged output record.
func (p *Processor) produced(ctx *sim.Context) {
	r := p.run(ctx)
	r.Position++
	r.InTxn++
	p.put(ctx, kpRun, r.encode())
	if !p.HasDB {
		p.next(ctx)
		return
	}
	cur := p.current(ctx)
	p.wait(ctx, kpExternal)
	ctx.Send(p.DB, DBWrite{Op: cur.Op, Attempt: cur.Attempt, Row: int64(cur.Op)}.Encode())
}

// buildProcessor builds a kafka-processor node from its options, each declared where it is read.
func buildProcessor(a *roles.Args) (sim.Node, []sim.TableSpec) {
	p := &Processor{
		Broker:      partitionLeader(a),
		Coordinator: txnCoordinator(a),
	}
	p.DB, p.HasDB = a.OptionalNode("db", "an external database also written for every record (outside the transaction)")
	p.Batch = a.Int("batch", 2, 1, 100, "input records per transaction (or per offset commit)")
	p.Timeout = txnTimeout(a)
	p.Heartbeat = a.Duration("heartbeat", "0", "heartbeat.interval.ms: join the consumer group and heartbeat this often while owning the input (0: no group protocol)")
	p.OffsetsOutside = a.Enum("offsets", "in-txn", []string{"in-txn", "commit-sync"},
		"under txn: the consumed offsets go into the transaction (sendOffsetsToTransaction), or are committed after it commits (commitSync)") == "commit-sync"
	txnID := a.Enum("txn-id", "instance", []string{"instance", "partition", "incarnation"},
		"under txn: one transactional id per processor instance (KIP-447), one per input partition, shared by whoever owns it (before KIP-447), or a new one at every start (an id derived from a pod name that changes: nobody registers the old one again)")
	p.SharedTxnID, p.FreshTxnID = txnID == "partition", txnID == "incarnation"
	p.NoGroupMetadata = a.Enum("group-metadata", "consumer", []string{"consumer", "group-id"},
		"under txn: offsets sent with consumer.groupMetadata() (member and generation, checked by the group), or with the group id only (generation -1, not checked)") == "group-id"
	p.Others = a.Int("others", 0, 0, 1000, "how many operations other producers write (the last ones of the run): it processes the rest, from the input topic")
	return p, kafkaProcessorTables()
}
