package flink

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/kafka"
	"github.com/oncesim/once/sim"
)

// Sink writes the stream into the external database.
//
// As a two-phase-commit sink (transactional semantics, Flink's
// TwoPhaseCommitSinkFunction) it writes records into an open database
// transaction; on a barrier it pre-commits that transaction (db-prepare),
// opens the next one, and acknowledges the checkpoint — carrying the
// pre-committed transactions as its state — only once the database
// confirmed the prepare. On checkpoint-complete it commits every
// transaction pre-committed up to that checkpoint. Redeployed after a
// failure, it first commits the pending transactions of the restored
// checkpoint (idempotently: they may already be committed), then aborts the
// lingering transactions of older attempts, then asks for the replayed
// stream, which goes into a new transaction.
//
// As a plain sink (at-least-once) it writes every record at once and
// acknowledges barriers with no state: whatever it wrote after the
// restored checkpoint is written again by the replay.
//
// A commit that finds its transaction gone (db-commit-failed: the database
// aborted it on its timeout) is handled as FailOnFailedCommit says. By
// default the sink logs it and goes on, as Flink's Kafka connector does
// (FlinkKafkaProducer.recoverAndCommit catches the InvalidTxnStateException
// or ProducerFencedException and logs a warning): the records of that
// transaction are lost, silently. With FailOnFailedCommit it rethrows, as
// the generic TwoPhaseCommitSinkFunction.recoverAndCommitInternal does
// unless ignoreFailuresAfterTransactionTimeout() was called: the job fails
// (here at once, as with a restart strategy that allows no restart — with
// restarts it would restore the same checkpoint and fail the same way),
// and the sink writes nothing more: the loss is loud.
//
// Its task manager keeps one durable thing, a boot count, so the job
// manager can tell a restart from a repeated registration.
//
// With Operator set the sink is also a stateful operator: it counts the
// records it handles (a running aggregate). Checkpointed, the count is
// Flink managed state: snapshotted at the barrier, carried in the
// acknowledgement, restored from the checkpoint on deployment — exactly
// once, whatever the sink's effects are. Unmanaged, the count lives
// outside the checkpoint (a local file, a counter service) and survives
// the crash as it was: the replay counts its records a second time.
type Sink struct {
	JobManager sim.NodeID
	Source     sim.NodeID
	DB         sim.NodeID
	RetryAfter sim.Time
	Operator   int32 // operatorNone, operatorCheckpointed or operatorUnmanaged

	FailOnFailedCommit bool        // rethrow a failed commit: the job fails
	jobStatus          sim.TableID // the job-status table (only with FailOnFailedCommit)
}

// jobFailed is the job-status row's state once a failed commit failed the
// job.
const jobFailedRow int32 = 1

// Kinds of operator state of the sink.
const (
	operatorNone int32 = iota
	operatorCheckpointed
	operatorUnmanaged
)

const (
	fkBoots    sim.TableID = iota // row 1: boot count
	fkState                       // row 1: a sinkRow
	fkPending                     // transaction → a pendingTxnRow
	fkOperator                    // row 1: {Value: records counted} (only with an Operator)
)

// Pending transaction states. A committed row stays, marked, so the trace
// shows it; it is no longer pending.
const (
	pendPreparing int32 = iota + 1
	pendPrepared
	pendCommitted
)

func flinkSinkTables() []sim.TableSpec {
	return []sim.TableSpec{
		{Name: "boots", Durable: true},
		{Name: "sink"},
		{Name: "pending-txns", Traced: true, States: []string{"", "PREPARING", "PRE-COMMITTED", "COMMIT-SENT"}},
	}
}

func (s *Sink) tables() []sim.TableSpec {
	t := flinkSinkTables()
	if s.Operator != operatorNone {
		t = append(t, sim.TableSpec{Name: operatorTableName, Durable: s.Operator == operatorUnmanaged, Traced: true})
	}
	if s.FailOnFailedCommit {
		s.jobStatus = sim.TableID(len(t))
		t = append(t, sim.TableSpec{Name: "job-status", Durable: true, Traced: true, States: []string{"", "FAILED"}})
	}
	return t
}

// failed reports whether a failed commit has failed the job.
func (s *Sink) failed(ctx *sim.Context) bool {
	if !s.FailOnFailedCommit {
		return false
	}
	r, _ := ctx.Get(s.jobStatus, 1, 0)
	return r.State == jobFailedRow
}

// counted is the operator state: records counted so far.
func (s *Sink) counted(ctx *sim.Context) int64 {
	if s.Operator == operatorNone {
		return 0
	}
	r, _ := ctx.Get(fkOperator, 1, 0)
	return r.Value
}

func (s *Sink) setCounted(ctx *sim.Context, n int64) {
	ctx.Put(fkOperator, 1, 0, sim.Record{Value: n})
}

func (s *Sink) state(ctx *sim.Context) sinkRow {
	r, _ := ctx.Get(fkState, 1, 0)
	return decodeSinkRow(r)
}

func (s *Sink) register(ctx *sim.Context) {
	b, _ := ctx.Get(fkBoots, 1, 0)
	ctx.Send(s.JobManager, register{Boot: b.Value}.encode())
	ctx.After(s.RetryAfter, sim.Timer{Kind: TimerRegister})
}

// Start counts the boot and registers with the job manager.
func (s *Sink) Start(ctx *sim.Context) {
	if s.failed(ctx) {
		return
	}
	b, _ := ctx.Get(fkBoots, 1, 0)
	b.Value++
	ctx.Put(fkBoots, 1, 0, b)
	s.register(ctx)
}

// Timer repeats the registration until a deployment arrives.
func (s *Sink) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind == TimerRegister && s.state(ctx).Attempt == 0 && !s.failed(ctx) {
		s.register(ctx)
	}
}

// Receive handles deployment, the stream and the commit notifications.
func (s *Sink) Receive(ctx *sim.Context, m sim.Message) {
	if s.failed(ctx) {
		return // the job has failed: nothing runs
	}
	r := s.state(ctx)
	twoPC := ctx.Semantics() == sim.Transactional
	switch m.Kind {
	case kafka.MsgDBCommitFailed:
		if s.FailOnFailedCommit {
			ctx.Put(s.jobStatus, 1, 0, sim.Record{State: jobFailedRow, Value: kafka.DecodeDBCommit(m).Txn})
			ctx.Send(s.JobManager, sim.Message{Kind: MsgJobFailed, Key: kafka.DecodeDBCommit(m).Txn})
		}
		// Otherwise logged and ignored: the transaction's records are lost.
	case MsgDeploy:
		s.deploy(ctx, decodeDeploy(m), r, twoPC)
	case MsgRecord:
		rec := decodeStreamRecord(m)
		if int64(rec.Attempt) != r.Attempt {
			return // from an attempt that was failed over
		}
		if s.Operator != operatorNone {
			s.setCounted(ctx, s.counted(ctx)+1)
		}
		txn := int64(0)
		if twoPC {
			txn = r.OpenTxn
		}
		ctx.Send(s.DB, kafka.DBWrite{Op: rec.Op, Attempt: rec.Attempt, Txn: txn, Row: int64(rec.Op)}.Encode())
		if ctx.CrashPoint(PointAfterWrite, &m) {
			return
		}
	case MsgBarrier:
		b := decodeCheckpointMsg(m)
		if int64(b.Attempt) != r.Attempt {
			return
		}
		if !twoPC {
			// No state to snapshot: acknowledge at once.
			ctx.Send(s.JobManager, ack{Checkpoint: b.Checkpoint, Attempt: b.Attempt, Position: int32(s.counted(ctx))}.encode())
			ctx.CrashPoint(PointAfterPreCommit, &m)
			return
		}
		// Pre-commit the open transaction; records after the barrier go
		// into a new one.
		ctx.Send(s.DB, kafka.DBPrepare{Txn: r.OpenTxn, Checkpoint: b.Checkpoint, Attempt: b.Attempt}.Encode(kafka.MsgDBPrepare))
		ctx.Put(fkPending, r.OpenTxn, 0, pendingTxnRow{State: pendPreparing, Checkpoint: b.Checkpoint, Counted: int32(s.counted(ctx))}.encode())
		r.Opened++
		r.OpenTxn = txnID(r.Attempt, r.Opened)
		ctx.Put(fkState, 1, 0, r.encode())
	case kafka.MsgDBPrepared:
		prepared := kafka.DecodeDBPrepare(m)
		rec, ok := ctx.Get(fkPending, prepared.Txn, 0)
		p := decodePendingTxnRow(rec)
		if !ok || p.State != pendPreparing {
			return
		}
		p.State = pendPrepared
		ctx.Put(fkPending, prepared.Txn, 0, p.encode())
		first := prepared.Txn
		pending := ctx.Rows(fkPending)
		for i := 0; i < pending.Len(); i++ {
			if txn, q := pending.At(i); decodePendingTxnRow(q).State != pendCommitted {
				first = txn
				break
			}
		}
		// The snapshot: every pre-committed transaction not yet committed.
		ctx.Send(s.JobManager, ack{Checkpoint: p.Checkpoint, Attempt: int32(r.Attempt), FirstTxn: first, LastTxn: prepared.Txn, Position: p.Counted}.encode())
		if ctx.CrashPoint(PointAfterPreCommit, &m) {
			return
		}
	case MsgComplete:
		c := decodeCheckpointMsg(m)
		if int64(c.Attempt) != r.Attempt {
			return
		}
		if twoPC {
			pending := ctx.Rows(fkPending)
			var done []int64
			for i := 0; i < pending.Len(); i++ {
				txn, rec := pending.At(i)
				if p := decodePendingTxnRow(rec); p.State == pendPrepared && p.Checkpoint <= c.Checkpoint {
					done = append(done, txn)
				}
			}
			for _, txn := range done {
				ctx.Send(s.DB, kafka.DBCommit{Txn: txn, Attempt: c.Attempt}.Encode())
				rec, _ := ctx.Get(fkPending, txn, 0)
				p := decodePendingTxnRow(rec)
				p.State, p.At = pendCommitted, 0
				ctx.Put(fkPending, txn, 0, p.encode())
			}
		}
		ctx.Send(s.JobManager, c.encode(MsgCommitted))
	}
}

// txnID names transaction n of a job attempt, unique across attempts (as
// Flink's transactional ids carry a prefix per attempt) and consecutive
// within one, so a checkpoint's pending transactions are a range. Nothing
// decodes it: the database keeps each transaction's attempt itself.
func txnID(attempt int64, n int32) int64 { return attempt*1000 + int64(n) }

// deploy restores the sink from a checkpoint and asks for the stream.
func (s *Sink) deploy(ctx *sim.Context, d deploy, r sinkRow, twoPC bool) {
	boot, _ := ctx.Get(fkBoots, 1, 0)
	if int64(d.Attempt) <= r.Attempt || int64(d.Boot) != boot.Value {
		return // an older attempt, or meant for an earlier incarnation
	}
	attempt := int64(d.Attempt)
	pending := ctx.Rows(fkPending)
	for pending.Len() > 0 {
		txn, _ := pending.At(0)
		ctx.Delete(fkPending, txn, 0)
	}
	if twoPC {
		// Commit what the restored checkpoint had pre-committed — the
		// commit notification may never have arrived — then abort the
		// transactions the failed attempt left open.
		if d.FirstTxn > 0 {
			for txn := d.FirstTxn; txn <= d.LastTxn; txn++ {
				ctx.Send(s.DB, kafka.DBCommit{Txn: txn, Attempt: d.Attempt}.Encode())
			}
		}
		ctx.Send(s.DB, kafka.DBAbortLingering{JobAttempt: attempt, Attempt: d.Attempt}.Encode())
	}
	if s.Operator == operatorCheckpointed {
		s.setCounted(ctx, d.Offset) // the state the checkpoint restores
	}
	ctx.Put(fkState, 1, 0, sinkRow{Attempt: attempt, OpenTxn: txnID(attempt, 1), Opened: 1}.encode())
	ctx.Send(s.Source, subscribe{Attempt: d.Attempt}.encode())
}

// buildSink builds a flink-sink node from its options, each declared where it is read.
func buildSink(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &Sink{
		JobManager: jobManager(a),
		Source:     a.Node("source", "the upstream task it asks for the stream"),
		DB:         a.Node("db", "the external database (role external-db)"),
		RetryAfter: a.PositiveDuration("retry", "1s", "how often it repeats its registration until deployed"),
	}
	switch a.Enum("operator", "none", []string{"none", "checkpointed", "unmanaged"},
		"a running count of the records it handles: none, Flink state in the checkpoint, or kept outside it") {
	case "checkpointed":
		s.Operator = operatorCheckpointed
	case "unmanaged":
		s.Operator = operatorUnmanaged
	}
	s.FailOnFailedCommit = a.Enum("on-failed-commit", "log", []string{"log", "fail"},
		"a commit whose transaction the database already aborted: log it and go on (FlinkKafkaProducer.recoverAndCommit), or rethrow and fail the job (TwoPhaseCommitSinkFunction.recoverAndCommitInternal without ignoreFailuresAfterTransactionTimeout)") == "fail"
	return s, s.tables()
}
