package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// KafkaCoordinator is the transaction coordinator. Its durable transaction
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
//     bump, as in Kafka's transactions version 2), so even a late write of
//     the same incarnation is fenced.
//
// A request carrying an older epoch is answered PRODUCER_FENCED, except a
// retried end-txn of the transaction that just completed, which gets the
// same answer again.
type KafkaCoordinator struct {
	Broker sim.NodeID
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
	kcTxnLog  sim.TableID = iota // transactional id → {State, Value: pid, Status: epoch}
	kcPIDs                       // row 1: last producer id issued
	kcReplies                    // answers owed once markers are written: kind → {Value: node}
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
func (c *KafkaCoordinator) Start(*sim.Context) {}

// Timer is unused: the model has no transaction timeout (a crashed
// producer's transaction is aborted when it restarts with the same id).
func (c *KafkaCoordinator) Timer(*sim.Context, sim.Timer) {}

func (c *KafkaCoordinator) log(ctx *sim.Context, id int64, t sim.Record) {
	t.At = 0
	ctx.Put(kcTxnLog, id, 0, t)
}

// Receive handles the transactional producer's requests and the broker's
// confirmation that markers were written.
func (c *KafkaCoordinator) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgKafkaInitPID:
		c.initPID(ctx, m)
	case MsgKafkaAddParts:
		c.addPartitions(ctx, m)
	case MsgKafkaEndTxn:
		c.endTxn(ctx, m)
	case MsgKafkaMarkersDone:
		c.markersDone(ctx, m)
	}
}

func (c *KafkaCoordinator) initPID(ctx *sim.Context, m sim.Message) {
	id := m.Key
	t, ok := ctx.Get(kcTxnLog, id, 0)
	if !ok {
		n, _ := ctx.Get(kcPIDs, 1, 0)
		n.Value++
		ctx.Put(kcPIDs, 1, 0, n)
		t = sim.Record{State: txnEmpty, Value: 1000 + n.Value}
	}
	switch t.State {
	case txnOngoing:
		// The previous incarnation left a transaction open: abort it with
		// a newer epoch before anyone gets the new one.
		t.Status++
		t.State = txnPrepareAbort
		c.log(ctx, id, t)
		ctx.Put(kcReplies, replyInit, 0, sim.Record{Value: int64(m.From), Aux: id, Status: m.Attempt})
		c.writeMarkers(ctx, t, txnAbort)
	case txnPrepareCommit, txnPrepareAbort:
		ctx.Put(kcReplies, replyInit, 0, sim.Record{Value: int64(m.From), Aux: id, Status: m.Attempt}) // answered when the markers are written
	default:
		t.Status++
		t.State = txnEmpty
		c.log(ctx, id, t)
		ctx.Send(m.From, sim.Message{Kind: MsgKafkaProducerID, Key: t.Value, Value: int64(t.Status), Payload: id, Attempt: m.Attempt})
	}
}

func (c *KafkaCoordinator) writeMarkers(ctx *sim.Context, t sim.Record, result int64) {
	ctx.Send(c.Broker, sim.Message{Kind: MsgKafkaMarkers, Key: t.Value, Value: int64(t.Status), Payload: result})
}

// lookupPID finds the transactional id of a producer id.
func lookupPID(ctx *sim.Context, pid int64) (int64, sim.Record, bool) {
	rows := ctx.Rows(kcTxnLog)
	for i := 0; i < rows.Len(); i++ {
		id, t := rows.At(i)
		if t.Value == pid {
			return id, t, true
		}
	}
	return 0, sim.Record{}, false
}

func (c *KafkaCoordinator) addPartitions(ctx *sim.Context, m sim.Message) {
	reply := sim.Message{Kind: MsgKafkaAddPartsOK, Key: m.Key, Payload: m.Value, Attempt: m.Attempt}
	id, t, ok := lookupPID(ctx, m.Key)
	switch {
	case !ok:
		reply.Status = kafkaInvalidTxnState
	case m.Value < int64(t.Status):
		reply.Status = kafkaProducerFenced
	case m.Value > int64(t.Status):
		reply.Status = kafkaInvalidTxnState
	case t.State == txnPrepareCommit || t.State == txnPrepareAbort:
		reply.Status = kafkaConcurrentTxns
	case t.State != txnOngoing:
		t.State = txnOngoing
		c.log(ctx, id, t)
	}
	ctx.Send(m.From, reply)
}

func (c *KafkaCoordinator) endTxn(ctx *sim.Context, m sim.Message) {
	reply := sim.Message{Kind: MsgKafkaEndTxnResult, Key: m.Key, Payload: m.Value, Attempt: m.Attempt}
	id, t, ok := lookupPID(ctx, m.Key)
	commit := m.Payload == txnCommit
	prepare, complete := txnPrepareAbort, txnCompleteAbort
	if commit {
		prepare, complete = txnPrepareCommit, txnCompleteCommit
	}
	switch {
	case !ok:
		reply.Status = kafkaInvalidTxnState
	case m.Value == int64(t.Status) && t.State == txnOngoing:
		t.Status++ // every transaction ends with an epoch bump
		t.State = prepare
		c.log(ctx, id, t)
		ctx.Put(kcReplies, replyEndTxn, 0, sim.Record{Value: int64(m.From), Aux: id, Status: m.Attempt})
		c.writeMarkers(ctx, t, m.Payload)
		return
	case m.Value == int64(t.Status) && !commit && t.State != txnPrepareCommit && t.State != txnPrepareAbort:
		reply.Value = int64(t.Status) // abort with nothing open: nothing to do
	case m.Value == int64(t.Status)-1 && t.State == complete:
		reply.Value = int64(t.Status) // a retry of the end-txn that just completed
	case m.Value == int64(t.Status)-1 && t.State == prepare:
		// A retry while the markers are written: answered when they are.
		ctx.Put(kcReplies, replyEndTxn, 0, sim.Record{Value: int64(m.From), Aux: id, Status: m.Attempt})
		return
	case m.Value < int64(t.Status):
		reply.Status = kafkaProducerFenced
	default:
		reply.Status = kafkaInvalidTxnState
	}
	ctx.Send(m.From, reply)
}

func (c *KafkaCoordinator) markersDone(ctx *sim.Context, m sim.Message) {
	id, t, ok := lookupPID(ctx, m.Key)
	if !ok || (t.State != txnPrepareCommit && t.State != txnPrepareAbort) {
		return
	}
	if t.State == txnPrepareCommit {
		t.State = txnCompleteCommit
	} else {
		t.State = txnCompleteAbort
	}
	c.log(ctx, id, t)
	if r, ok := ctx.Get(kcReplies, replyEndTxn, 0); ok {
		ctx.Delete(kcReplies, replyEndTxn, 0)
		ctx.Send(sim.NodeID(r.Value), sim.Message{Kind: MsgKafkaEndTxnResult, Key: t.Value, Value: int64(t.Status), Payload: int64(t.Status) - 1, Attempt: r.Status})
	}
	if r, ok := ctx.Get(kcReplies, replyInit, 0); ok {
		ctx.Delete(kcReplies, replyInit, 0)
		t.Status++
		t.State = txnEmpty
		c.log(ctx, id, t)
		ctx.Send(sim.NodeID(r.Value), sim.Message{Kind: MsgKafkaProducerID, Key: t.Value, Value: int64(t.Status), Payload: r.Aux, Attempt: r.Status})
	}
}

var (
	kafkaCoordinatorBroker = roles.Node("broker", "the partition leader that writes the markers")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "kafka-coordinator",
		Doc:     "transaction coordinator: producer ids and epochs, a durable transaction log, commit/abort markers written through the broker",
		Options: []roles.Option{kafkaCoordinatorBroker},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &KafkaCoordinator{Broker: kafkaCoordinatorBroker.Get(a)}, kafkaCoordinatorTables()
		},
	})
}
