package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Coordinator is the transaction coordinator. Its durable transaction
// log maps a transactional id to the producer id, the current epoch and the
// state of the current transaction.
//
// The protocol, in order:
//
//   - init-producer-id bumps the epoch. If a transaction of the previous
//     incarnation is still ONGOING it is aborted first — PREPARE-ABORT is
//     logged, ABORT markers carrying a newer epoch are written to the
//     partitions — and only then is the new epoch returned, so the broker
//     knows the new epoch before the new incarnation writes and before any
//     late write of the old one arrives;
//   - add-partitions moves the transaction to ONGOING;
//   - end-txn logs PREPARE-COMMIT (or PREPARE-ABORT) *before* asking the
//     broker to write the markers, logs COMPLETE-… when they are written,
//     and answers with a bumped epoch (every transaction ends with an epoch
//     bump, as in Kafka's transactions version 2, KIP-890 part 2), so even
//     a late write of the same incarnation is fenced. The model's clients
//     still send add-partitions, as version 1 clients do (version 2 adds
//     partitions implicitly with the first produce); V1 switches the bump
//     off.
//
// A request carrying an older epoch is answered PRODUCER_FENCED, except a
// retried end-txn of the transaction that just completed, which gets the
// same answer again.
//
// With a TxnTimeout (Kafka's transaction.timeout.ms) the coordinator
// starts a timer when a transaction becomes ONGOING. If the transaction is
// still ONGOING in the same epoch when it fires, the producer has
// abandoned it (crashed, paused, partitioned): the coordinator bumps the
// epoch and aborts it with markers of the new epoch, so the last stable
// offset moves on for read_committed readers, and every later request of
// the returning producer carries a stale epoch and is fenced.
//
// With V1 the coordinator follows transactions version 1 (Kafka before
// 4.0): EndTxn keeps the epoch, and only a re-registration or the timeout
// bumps it. A produce of the aborted transaction that arrives late carries
// the current epoch and the next sequence, so nothing at the partition
// tells it from a write of the next transaction (KIP-890's late write).
type Coordinator struct {
	Broker     sim.NodeID
	TxnTimeout sim.Time // 0: no timeout (an abandoned transaction stays open until the id is re-registered)
	V1         bool     // transactions version 1: no epoch bump at EndTxn
}

// Transaction states in the coordinator's log.
const (
	txnEmpty int32 = iota + 1
	txnOngoing
	txnPrepareCommit
	txnPrepareAbort
	txnCompleteCommit
	txnCompleteAbort
)

var txnStates = []string{"", "EMPTY", "ONGOING", "PREPARE-COMMIT", "PREPARE-ABORT", "COMPLETE-COMMIT", "COMPLETE-ABORT"}

const (
	kcTxnLog  sim.TableID = iota // transactional id → a txnLogRow
	kcPIDs                       // row 1: {Value: last producer id issued}
	kcReplies                    // answers owed once markers are written: replyEndTxn or replyInit → a replyRow
)

const (
	replyEndTxn int64 = 1
	replyInit   int64 = 2
)

func kafkaCoordinatorTables() []sim.TableSpec {
	return []sim.TableSpec{
		{Name: "txn-log", Durable: true, Traced: true, States: txnStates},
		{Name: "producer-ids", Durable: true},
		{Name: "owed-replies", Durable: true},
	}
}

// Start does nothing: the coordinator only answers.
func (c *Coordinator) Start(*sim.Context) {}

// Timer aborts a transaction that outlived the transaction timeout: Key
// is the transactional id, Attempt the epoch the transaction began in.
func (c *Coordinator) Timer(ctx *sim.Context, tm sim.Timer) {
	if tm.Kind != TimerTxnTimeout {
		return
	}
	rec, ok := ctx.Get(kcTxnLog, tm.Key, 0)
	t := decodeTxnLogRow(rec)
	if !ok || t.State != txnOngoing || t.Epoch != tm.Attempt {
		return // ended, or already aborted, in time
	}
	t.Epoch++ // the abort fences the producer that abandoned it
	t.State = txnPrepareAbort
	c.log(ctx, tm.Key, t)
	c.writeMarkers(ctx, t, txnAbort)
}

func (c *Coordinator) log(ctx *sim.Context, id int64, t txnLogRow) {
	t.At = 0
	ctx.Put(kcTxnLog, id, 0, t.encode())
}

// owe stores an answer owed once markers are written.
func owe(ctx *sim.Context, which int64, to sim.NodeID, id int64, corr int32) {
	ctx.Put(kcReplies, which, 0, replyRow{Node: to, TxnID: id, Corr: corr}.encode())
}

// Receive handles the transactional producer's requests and the broker's
// confirmation that markers were written.
func (c *Coordinator) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgInitPID:
		c.initPID(ctx, m.From, decodeInitPID(m))
	case MsgAddParts:
		c.addPartitions(ctx, m.From, decodeAddParts(m))
	case MsgEndTxn:
		c.endTxn(ctx, m.From, decodeEndTxn(m))
	case MsgMarkersDone:
		c.markersDone(ctx, decodeMarkers(m))
	case MsgVerifyTxn:
		c.verify(ctx, m)
	}
}

// verify answers a partition leader's question (KIP-890 part 1): is this
// producer, in this epoch, in a transaction that includes the partition?
// Only an ONGOING transaction of the same epoch does; a write of an ended
// transaction is answered INVALID_TXN_STATE, one of an older epoch
// INVALID_PRODUCER_EPOCH.
func (c *Coordinator) verify(ctx *sim.Context, m sim.Message) {
	v := decodeVerifyTxn(m)
	_, t, ok := lookupPID(ctx, v.P.PID)
	switch {
	case ok && v.P.Epoch < int64(t.Epoch):
		v.Err = kafkaInvalidProducerEpoch
	case !ok || v.P.Epoch != int64(t.Epoch) || t.State != txnOngoing:
		v.Err = kafkaInvalidTxnState
	}
	ctx.Send(m.From, v.encode(MsgTxnVerified))
}

func (c *Coordinator) initPID(ctx *sim.Context, from sim.NodeID, req initPID) {
	id := req.TxnID
	rec, ok := ctx.Get(kcTxnLog, id, 0)
	t := decodeTxnLogRow(rec)
	if !ok {
		n, _ := ctx.Get(kcPIDs, 1, 0)
		n.Value++
		ctx.Put(kcPIDs, 1, 0, n)
		t = txnLogRow{State: txnEmpty, PID: 1000 + n.Value}
	}
	switch t.State {
	case txnOngoing:
		// The previous incarnation left a transaction open: abort it with
		// a newer epoch before anyone gets the new one.
		t.Epoch++
		t.State = txnPrepareAbort
		c.log(ctx, id, t)
		owe(ctx, replyInit, from, id, req.Corr)
		c.writeMarkers(ctx, t, txnAbort)
	case txnPrepareCommit, txnPrepareAbort:
		owe(ctx, replyInit, from, id, req.Corr) // answered when the markers are written
	default:
		t.Epoch++
		t.State = txnEmpty
		c.log(ctx, id, t)
		ctx.Send(from, producerID{PID: t.PID, Epoch: int64(t.Epoch), TxnID: id, Corr: req.Corr}.encode())
	}
}

func (c *Coordinator) writeMarkers(ctx *sim.Context, t txnLogRow, result int64) {
	ctx.Send(c.Broker, markers{PID: t.PID, Epoch: int64(t.Epoch), Result: result}.encode(MsgMarkers))
}

// lookupPID finds the transactional id of a producer id.
func lookupPID(ctx *sim.Context, pid int64) (int64, txnLogRow, bool) {
	rows := ctx.Rows(kcTxnLog)
	for i := 0; i < rows.Len(); i++ {
		id, rec := rows.At(i)
		if t := decodeTxnLogRow(rec); t.PID == pid {
			return id, t, true
		}
	}
	return 0, txnLogRow{}, false
}

func (c *Coordinator) addPartitions(ctx *sim.Context, from sim.NodeID, req addParts) {
	reply := addPartsOK{PID: req.PID, Epoch: req.Epoch, Corr: req.Corr}
	id, t, ok := lookupPID(ctx, req.PID)
	switch {
	case !ok:
		reply.Err = kafkaInvalidTxnState
	case req.Epoch < int64(t.Epoch):
		reply.Err = kafkaProducerFenced
	case req.Epoch > int64(t.Epoch):
		reply.Err = kafkaInvalidTxnState
	case t.State == txnPrepareCommit || t.State == txnPrepareAbort:
		reply.Err = kafkaConcurrentTxns
	case t.State != txnOngoing:
		t.State = txnOngoing
		c.log(ctx, id, t)
		if c.TxnTimeout > 0 {
			ctx.After(c.TxnTimeout, sim.Timer{Kind: TimerTxnTimeout, Key: id, Attempt: t.Epoch})
		}
	}
	ctx.Send(from, reply.encode())
}

func (c *Coordinator) endTxn(ctx *sim.Context, from sim.NodeID, req endTxn) {
	reply := endTxnResult{PID: req.PID, Epoch: req.Epoch, Corr: req.Corr}
	id, t, ok := lookupPID(ctx, req.PID)
	commit := req.Result == txnCommit
	prepare, complete := txnPrepareAbort, txnCompleteAbort
	if commit {
		prepare, complete = txnPrepareCommit, txnCompleteCommit
	}
	epoch := int64(t.Epoch)
	ended := epoch - 1 // the epoch the last transaction ran in
	if c.V1 {
		ended = epoch
	}
	switch {
	case !ok:
		reply.Err = kafkaInvalidTxnState
	case req.Epoch == epoch && t.State == txnOngoing:
		if !c.V1 {
			t.Epoch++ // every transaction ends with an epoch bump
		}
		t.State = prepare
		c.log(ctx, id, t)
		owe(ctx, replyEndTxn, from, id, req.Corr)
		c.writeMarkers(ctx, t, req.Result)
		return
	case req.Epoch == epoch && !commit && t.State != txnPrepareCommit && t.State != txnPrepareAbort:
		reply.NewEpoch = epoch // abort with nothing open: nothing to do
	case req.Epoch == ended && t.State == complete:
		reply.NewEpoch = epoch // a retry of the end-txn that just completed
	case req.Epoch == ended && t.State == prepare:
		// A retry while the markers are written: answered when they are.
		owe(ctx, replyEndTxn, from, id, req.Corr)
		return
	case req.Epoch < epoch:
		reply.Err = kafkaProducerFenced
	default:
		reply.Err = kafkaInvalidTxnState
	}
	ctx.Send(from, reply.encode())
}

func (c *Coordinator) markersDone(ctx *sim.Context, w markers) {
	id, t, ok := lookupPID(ctx, w.PID)
	if !ok || (t.State != txnPrepareCommit && t.State != txnPrepareAbort) {
		return
	}
	if t.State == txnPrepareCommit {
		t.State = txnCompleteCommit
	} else {
		t.State = txnCompleteAbort
	}
	c.log(ctx, id, t)
	if rec, ok := ctx.Get(kcReplies, replyEndTxn, 0); ok {
		ctx.Delete(kcReplies, replyEndTxn, 0)
		r := decodeReplyRow(rec)
		ended := int64(t.Epoch) - 1
		if c.V1 {
			ended = int64(t.Epoch)
		}
		ctx.Send(r.Node, endTxnResult{PID: t.PID, NewEpoch: int64(t.Epoch), Epoch: ended, Corr: r.Corr}.encode())
	}
	if rec, ok := ctx.Get(kcReplies, replyInit, 0); ok {
		ctx.Delete(kcReplies, replyInit, 0)
		r := decodeReplyRow(rec)
		t.Epoch++
		t.State = txnEmpty
		c.log(ctx, id, t)
		ctx.Send(r.Node, producerID{PID: t.PID, Epoch: int64(t.Epoch), TxnID: r.TxnID, Corr: r.Corr}.encode())
	}
}

// buildCoordinator builds a kafka-coordinator node from its options, each declared where it is read.
func buildCoordinator(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &Coordinator{
		Broker:     a.Node("broker", "the partition leader that writes the markers"),
		TxnTimeout: a.Duration("txn-timeout", "0", "transaction.timeout.ms: an ONGOING transaction older than this is aborted and its producer fenced (0: never)"),
		V1: a.Enum("transactions", "v2", []string{"v2", "v1"},
			"v2: every EndTxn bumps the epoch (transactions version 2, KIP-890 part 2, Kafka 4.0; clients here still send add-partitions); v1: EndTxn keeps the epoch, only a re-registration or the timeout bumps it (Kafka before 4.0)") == "v1",
	}
	return c, kafkaCoordinatorTables()
}
