package flink

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/kafka"
	"github.com/oncesim/once/sim"
)

// FlinkSink writes the stream into the external database.
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
// Its task manager keeps one durable thing, a boot count, so the job
// manager can tell a restart from a repeated registration.
type FlinkSink struct {
	JobManager sim.NodeID
	Source     sim.NodeID
	DB         sim.NodeID
	RetryAfter sim.Time
}

const (
	fkBoots   sim.TableID = iota // row 1: boot count
	fkState                      // row 1: {Value: attempt, Aux: open transaction, Status: transactions opened this attempt}
	fkPending                    // transaction → {State: preparing/prepared, Value: checkpoint}
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

func (s *FlinkSink) state(ctx *sim.Context) sim.Record {
	r, _ := ctx.Get(fkState, 1, 0)
	return r
}

func (s *FlinkSink) register(ctx *sim.Context) {
	b, _ := ctx.Get(fkBoots, 1, 0)
	ctx.Send(s.JobManager, sim.Message{Kind: MsgFlinkRegister, Key: b.Value})
	ctx.After(s.RetryAfter, sim.Timer{Kind: TimerFlinkRegister})
}

// Start counts the boot and registers with the job manager.
func (s *FlinkSink) Start(ctx *sim.Context) {
	b, _ := ctx.Get(fkBoots, 1, 0)
	b.Value++
	ctx.Put(fkBoots, 1, 0, b)
	s.register(ctx)
}

// Timer repeats the registration until a deployment arrives.
func (s *FlinkSink) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind == TimerFlinkRegister && s.state(ctx).Value == 0 {
		s.register(ctx)
	}
}

// Receive handles deployment, the stream and the commit notifications.
func (s *FlinkSink) Receive(ctx *sim.Context, m sim.Message) {
	r := s.state(ctx)
	twoPC := ctx.Semantics() == sim.Transactional
	switch m.Kind {
	case MsgFlinkDeploy:
		s.deploy(ctx, m, r, twoPC)
	case MsgFlinkRecord:
		if int64(m.Attempt) != r.Value {
			return // from an attempt that was failed over
		}
		txn := int64(0)
		if twoPC {
			txn = r.Aux
		}
		ctx.Send(s.DB, sim.Message{Kind: kafka.MsgDBWrite, Op: m.Op, Attempt: m.Attempt, Key: txn, Payload: int64(m.Op)})
		if ctx.CrashPoint(PointFlinkAfterWrite, &m) {
			return
		}
	case MsgFlinkBarrier:
		if int64(m.Attempt) != r.Value {
			return
		}
		if !twoPC {
			// No state to snapshot: acknowledge at once.
			ctx.Send(s.JobManager, sim.Message{Kind: MsgFlinkAck, Key: m.Key, Attempt: m.Attempt})
			ctx.CrashPoint(PointFlinkAfterPreCommit, &m)
			return
		}
		// Pre-commit the open transaction; records after the barrier go
		// into a new one.
		ctx.Send(s.DB, sim.Message{Kind: kafka.MsgDBPrepare, Key: r.Aux, Payload: m.Key, Attempt: m.Attempt})
		ctx.Put(fkPending, r.Aux, 0, sim.Record{State: pendPreparing, Value: m.Key})
		r.Status++
		r.Aux = r.Value*1000 + int64(r.Status)
		ctx.Put(fkState, 1, 0, r)
	case kafka.MsgDBPrepared:
		p, ok := ctx.Get(fkPending, m.Key, 0)
		if !ok || p.State != pendPreparing {
			return
		}
		p.State = pendPrepared
		ctx.Put(fkPending, m.Key, 0, p)
		lo := m.Key
		pending := ctx.Rows(fkPending)
		for i := 0; i < pending.Len(); i++ {
			if txn, q := pending.At(i); q.State != pendCommitted {
				lo = txn
				break
			}
		}
		// The snapshot: every pre-committed transaction not yet committed.
		ctx.Send(s.JobManager, sim.Message{Kind: MsgFlinkAck, Key: p.Value, Attempt: int32(r.Value), Payload: lo, Value: m.Key})
		if ctx.CrashPoint(PointFlinkAfterPreCommit, &m) {
			return
		}
	case MsgFlinkComplete:
		if int64(m.Attempt) != r.Value {
			return
		}
		if twoPC {
			pending := ctx.Rows(fkPending)
			var done []int64
			for i := 0; i < pending.Len(); i++ {
				txn, p := pending.At(i)
				if p.State == pendPrepared && p.Value <= m.Key {
					done = append(done, txn)
				}
			}
			for _, txn := range done {
				ctx.Send(s.DB, sim.Message{Kind: kafka.MsgDBCommit, Key: txn, Attempt: m.Attempt})
				p, _ := ctx.Get(fkPending, txn, 0)
				p.State, p.At = pendCommitted, 0
				ctx.Put(fkPending, txn, 0, p)
			}
		}
		ctx.Send(s.JobManager, sim.Message{Kind: MsgFlinkCommitted, Key: m.Key, Attempt: m.Attempt})
	}
}

// deploy restores the sink from a checkpoint and asks for the stream.
func (s *FlinkSink) deploy(ctx *sim.Context, m sim.Message, r sim.Record, twoPC bool) {
	boot, _ := ctx.Get(fkBoots, 1, 0)
	if int64(m.Attempt) <= r.Value || int64(m.Status) != boot.Value {
		return // an older attempt, or meant for an earlier incarnation
	}
	attempt := int64(m.Attempt)
	pending := ctx.Rows(fkPending)
	for pending.Len() > 0 {
		txn, _ := pending.At(0)
		ctx.Delete(fkPending, txn, 0)
	}
	if twoPC {
		// Commit what the restored checkpoint had pre-committed — the
		// commit notification may never have arrived — then abort the
		// transactions the failed attempt left open.
		if m.Key > 0 {
			for txn := m.Key; txn <= m.Value; txn++ {
				ctx.Send(s.DB, sim.Message{Kind: kafka.MsgDBCommit, Key: txn, Attempt: m.Attempt})
			}
		}
		ctx.Send(s.DB, sim.Message{Kind: kafka.MsgDBAbortLingering, Key: attempt, Attempt: m.Attempt})
	}
	ctx.Put(fkState, 1, 0, sim.Record{Value: attempt, Aux: attempt*1000 + 1, Status: 1})
	ctx.Send(s.Source, sim.Message{Kind: MsgFlinkSubscribe, Attempt: m.Attempt})
}

var (
	flinkSinkJobmanager = roles.Node("jobmanager", "the checkpoint coordinator")
	flinkSinkSource     = roles.Node("source", "the upstream task it asks for the stream")
	flinkSinkDB         = roles.Node("db", "the external database (role external-db)")
	flinkSinkRetry      = roles.PositiveDuration("retry", "1s", "how often it repeats its registration until deployed")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "flink-sink",
		Doc:     "writes the stream to an external database: two-phase commit on checkpoints under txn, plain writes otherwise",
		Options: []roles.Option{flinkSinkJobmanager, flinkSinkSource, flinkSinkDB, flinkSinkRetry},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			s := &FlinkSink{JobManager: flinkSinkJobmanager.Get(a), Source: flinkSinkSource.Get(a), DB: flinkSinkDB.Get(a), RetryAfter: flinkSinkRetry.Get(a)}
			return s, flinkSinkTables()
		},
	})
}
