package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Producer is a transactional producer with records of its own — not
// read from an input topic, as an order service publishes its events:
// the last Ops operations of the run, one transaction each (add-partitions
// → produce → end-txn(commit)), the first at Begin and each next one Every
// after the previous commit. It shares the output partition with whatever
// else writes there, so a transaction another producer leaves open holds
// its committed records back from every read_committed reader.
//
// It registers its own transactional id. A request left unanswered past
// Timeout is sent again; an unanswered produce aborts the transaction and
// the record is written again in the next one, as the processor does. An
// answer that says its epoch is stale makes it register again.
type Producer struct {
	Broker      sim.NodeID
	Coordinator sim.NodeID
	Ops         int64
	Begin       sim.Time
	Every       sim.Time
	Timeout     sim.Time
}

const kwState sim.TableID = 0 // volatile: kwRun and kwProducer below

const (
	kwRun      int64 = 1 // a runRow: Phase, Position (the next operation), Corr
	kwProducer int64 = 2 // a clientRow
	kwCorr     int64 = 3 // {Value: last correlation id}
)

// timerNext starts the producer's next transaction (Key 0) — the
// kafka-timeout timer with no correlation id.
const timerNextKey = 0

func kafkaProducerTables() []sim.TableSpec { return []sim.TableSpec{{Name: "producer"}} }

func (w *Producer) run(ctx *sim.Context) runRow {
	r, _ := ctx.Get(kwState, kwRun, 0)
	return decodeRunRow(r)
}

func (w *Producer) client(ctx *sim.Context) clientRow {
	r, _ := ctx.Get(kwState, kwProducer, 0)
	return decodeClientRow(r)
}

// first is the first operation it writes.
func (w *Producer) first(ctx *sim.Context) int64 { return int64(ctx.Ops()) - othersOf(ctx, w.Ops) + 1 }

// othersOf is how many of the run's operations other producers write (the
// last ones): n, at most every operation.
func othersOf(ctx *sim.Context, n int64) int64 { return min(max(n, 0), int64(ctx.Ops())) }

// endTxnFor is the end-txn request of a client in phase with the
// producer state prod: kpEndTxn commits, kpAbort aborts.
func endTxnFor(prod clientRow, phase, corr int32) sim.Message {
	result := txnCommit
	if phase == kpAbort {
		result = txnAbort
	}
	return endTxn{PID: prod.PID, Epoch: int64(prod.Epoch), Result: result, Corr: corr}.encode()
}

// endTxnOutcome reads m, an end-txn result, for a client in phase with
// the producer state prod: answered is false when it is not the answer
// awaited (another phase, a stale epoch), failed when the coordinator
// refused, and next is the producer state after the transaction: under
// transactions v1 the epoch stays the same and the sequence goes on.
func endTxnOutcome(m sim.Message, phase int32, prod clientRow) (next clientRow, answered, failed bool) {
	a := decodeEndTxnResult(m)
	epoch := int64(prod.Epoch)
	if (phase != kpEndTxn && phase != kpAbort) || a.Epoch != epoch {
		return clientRow{}, false, false
	}
	if a.Err != 0 {
		return clientRow{}, true, true
	}
	next = clientRow{PID: prod.PID, Epoch: int32(a.NewEpoch)}
	if a.NewEpoch == epoch {
		next.Seq = prod.Seq
	}
	return next, true, false
}

// Start schedules the first transaction.
func (w *Producer) Start(ctx *sim.Context) {
	if w.Ops <= 0 {
		return
	}
	r := runRow{Phase: kpInit, Position: w.first(ctx)}
	ctx.Put(kwState, kwRun, 0, r.encode())
	ctx.After(w.Begin, sim.Timer{Kind: TimerTimeout, Key: timerNextKey})
}

// request enters phase with a new correlation id, sends its request and
// arms its timeout.
func (w *Producer) request(ctx *sim.Context, phase int32) {
	c, _ := ctx.Get(kwState, kwCorr, 0)
	c.Value++
	ctx.Put(kwState, kwCorr, 0, c)
	r := w.run(ctx)
	r.Phase, r.Corr = phase, c.Value
	ctx.Put(kwState, kwRun, 0, r.encode())
	prod := w.client(ctx)
	corr, epoch, op := int32(c.Value), int64(prod.Epoch), sim.OpID(r.Position)
	switch phase {
	case kpInit:
		ctx.Send(w.Coordinator, initPID{TxnID: kafkaTransactionalID + int64(ctx.Self()), Corr: corr}.encode())
	case kpAddParts:
		ctx.Send(w.Coordinator, addParts{PID: prod.PID, Epoch: epoch, Corr: corr}.encode())
	case kpProduce:
		ctx.Send(w.Broker, produce{Op: op, Attempt: corr, PID: prod.PID, Epoch: epoch, Seq: prod.Seq}.encode())
	case kpEndTxn, kpAbort:
		ctx.Send(w.Coordinator, endTxnFor(prod, phase, corr))
	}
	ctx.After(w.Timeout, sim.Timer{Kind: TimerTimeout, Key: c.Value, Op: op})
}

// Timer starts the next transaction, or handles a request's timeout.
func (w *Producer) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerTimeout {
		return
	}
	r := w.run(ctx)
	switch {
	case t.Key == timerNextKey:
		if w.client(ctx).PID == 0 {
			w.request(ctx, kpInit)
			return
		}
		w.request(ctx, kpAddParts)
	case t.Key != r.Corr || r.Phase == kpDone:
		return
	case r.Phase == kpProduce:
		w.request(ctx, kpAbort) // unanswered: abort, then write it again
	default:
		w.request(ctx, r.Phase)
	}
}

// Receive advances on the answer to the request it waits for.
func (w *Producer) Receive(ctx *sim.Context, m sim.Message) {
	r := w.run(ctx)
	prod := w.client(ctx)
	if kafkaCorrelated(m.Kind) && int64(m.Attempt) != r.Corr {
		return
	}
	epoch := int64(prod.Epoch)
	switch m.Kind {
	case MsgProducerID:
		if r.Phase != kpInit {
			return
		}
		a := decodeProducerID(m)
		ctx.Put(kwState, kwProducer, 0, clientRow{PID: a.PID, Epoch: int32(a.Epoch)}.encode())
		w.request(ctx, kpAddParts)
	case MsgAddPartsOK:
		a := decodeAddPartsOK(m)
		if r.Phase != kpAddParts || a.Epoch != epoch {
			return
		}
		switch a.Err {
		case 0:
			prod.Seq++
			ctx.Put(kwState, kwProducer, 0, prod.encode())
			w.request(ctx, kpProduce)
		case kafkaConcurrentTxns:
			w.request(ctx, kpAddParts)
		default:
			w.request(ctx, kpInit)
		}
	case MsgProduceAck:
		a := decodeProduceAck(m)
		if r.Phase != kpProduce || int64(a.Attempt) != r.Corr || a.Epoch != epoch || a.Seq != prod.Seq {
			return
		}
		if a.Err != 0 {
			w.request(ctx, kpInit)
			return
		}
		w.request(ctx, kpEndTxn)
	case MsgEndTxnResult:
		next, answered, failed := endTxnOutcome(m, r.Phase, prod)
		if !answered {
			return
		}
		if failed {
			w.request(ctx, kpInit)
			return
		}
		ctx.Put(kwState, kwProducer, 0, next.encode())
		if r.Phase == kpAbort {
			w.request(ctx, kpAddParts) // the same record, in a new transaction
			return
		}
		r = w.run(ctx)
		r.Position++
		r.Phase, r.Corr = kpDone, 0 // no request in flight: a late timeout finds none
		if r.Position <= int64(ctx.Ops()) {
			r.Phase = kpAddParts
			ctx.After(w.Every, sim.Timer{Kind: TimerTimeout, Key: timerNextKey})
		}
		ctx.Put(kwState, kwRun, 0, r.encode())
	}
}

// buildProducer builds a kafka-producer node from its options, each declared where it is read.
func buildProducer(a *roles.Args) (sim.Node, []sim.TableSpec) {
	w := &Producer{
		Broker:      partitionLeader(a),
		Coordinator: txnCoordinator(a),
		Ops:         a.Int("ops", 0, 0, 1000, "how many operations it writes: the last ones of the run (the input topic holds the others); 0: none"),
		Begin:       a.Duration("begin", "0", "when it starts its first transaction"),
		Every:       a.Duration("every", "0", "the pause between a commit and its next transaction"),
		Timeout:     a.PositiveDuration("timeout", "1s", "how long it waits for an answer; an unanswered produce aborts the transaction"),
	}
	return w, kafkaProducerTables()
}
