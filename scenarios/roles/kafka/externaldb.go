package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// ExternalDB is a database outside any Kafka or Flink boundary. Every row
// it commits is one effect on the db-rows sink.
//
// A write with no transaction (Key 0) commits at once and is acknowledged.
// A write inside a transaction (Key = transaction id) is kept pending
// until db-commit; db-prepare makes the transaction durable and prepared
// (the first phase of a two-phase commit) and is acknowledged; db-commit
// is idempotent — committing a committed transaction does nothing — and
// db-abort-lingering aborts every transaction of an older job attempt that
// is still open or prepared (each transaction keeps the job attempt of the
// write or prepare that opened it; the id itself is opaque).
//
// With Upsert, a row is keyed by its natural key (the operation) and a
// second write of the same key changes nothing (INSERT … ON CONFLICT DO
// NOTHING); otherwise every write inserts a new row.
//
// With a TxnTimeout (Kafka's transaction.timeout.ms when the "database"
// is a Kafka cluster written by a transactional sink) a transaction that
// is neither committed nor aborted that long after it was opened is
// aborted by the database, prepared or not: its rows are gone, and a
// later db-commit finds it ABORTED, commits nothing and answers
// db-commit-failed, so the trace shows the failed commit (the
// failed-commits metric counts them).
type ExternalDB struct {
	Upsert     bool
	TxnTimeout sim.Time // 0: transactions never time out
}

const (
	dbRows    sim.TableID = iota // row id (insert) or natural key (upsert) → {Value: op}
	dbPending                    // pending row id → a dbPendingRow
	dbTxns                       // transaction → a dbTxnRow
	dbCounter                    // row 1: last row id; row 2: last pending id
)

// Transaction states of the external database.
const (
	dbTxnOpen int32 = iota + 1
	dbTxnPrepared
	dbTxnCommitted
	dbTxnAborted
)

func externalDBTables() []sim.TableSpec {
	return []sim.TableSpec{
		{Name: "rows", Durable: true, Traced: true, States: []string{"", "ROW"}},
		{Name: "pending-rows", Durable: true},
		{Name: "transactions", Durable: true, Traced: true, States: []string{"", "OPEN", "PREPARED", "COMMITTED", "ABORTED"}},
		{Name: "counters", Durable: true},
	}
}

// Start does nothing: the database only answers.
func (d *ExternalDB) Start(*sim.Context) {}

// Timer aborts a transaction that outlived the transaction timeout (Key:
// the transaction).
func (d *ExternalDB) Timer(ctx *sim.Context, tm sim.Timer) {
	if tm.Kind != TimerDBTxnTimeout {
		return
	}
	rec, _ := ctx.Get(dbTxns, tm.Key, 0)
	if t := decodeDBTxnRow(rec); t.State == dbTxnOpen || t.State == dbTxnPrepared {
		d.abort(ctx, tm.Key)
	}
}

// opened starts the transaction timeout of a transaction just opened.
func (d *ExternalDB) opened(ctx *sim.Context, txn int64) {
	if d.TxnTimeout > 0 {
		ctx.After(d.TxnTimeout, sim.Timer{Kind: TimerDBTxnTimeout, Key: txn})
	}
}

// abort drops a transaction's pending rows and marks it ABORTED.
func (d *ExternalDB) abort(ctx *sim.Context, txn int64) {
	for _, id := range d.pendingOf(ctx, func(t int64) bool { return t == txn }) {
		ctx.Delete(dbPending, id, 0)
	}
	rec, _ := ctx.Get(dbTxns, txn, 0)
	t := decodeDBTxnRow(rec)
	t.State, t.At = dbTxnAborted, 0
	ctx.Put(dbTxns, txn, 0, t.encode())
}

func (d *ExternalDB) counter(ctx *sim.Context, which int64) int64 {
	c, _ := ctx.Get(dbCounter, which, 0)
	c.Value++
	ctx.Put(dbCounter, which, 0, c)
	return c.Value
}

// apply commits one row: the effect.
func (d *ExternalDB) apply(ctx *sim.Context, op sim.OpID, natural int64) {
	if d.Upsert {
		if _, exists := ctx.Get(dbRows, natural, op); exists {
			return // ON CONFLICT DO NOTHING
		}
		ctx.Put(dbRows, natural, op, sim.Record{State: 1, Value: int64(op)})
		ctx.Effect(SinkDBRows, op, natural)
		return
	}
	id := d.counter(ctx, 1)
	ctx.Put(dbRows, id, op, sim.Record{State: 1, Value: int64(op)})
	ctx.Effect(SinkDBRows, op, id)
}

// Receive handles writes and transaction control.
func (d *ExternalDB) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgDBWrite:
		w := DecodeDBWrite(m)
		if w.Txn == 0 {
			d.apply(ctx, w.Op, w.Row)
			ctx.Send(m.From, DBWriteAck{Op: w.Op, Attempt: w.Attempt}.Encode())
			return
		}
		t, ok := ctx.Get(dbTxns, w.Txn, w.Op)
		if ok && t.State != dbTxnOpen {
			return // the transaction is over: a late write is refused
		}
		if !ok {
			ctx.Put(dbTxns, w.Txn, w.Op, dbTxnRow{State: dbTxnOpen, JobAttempt: int64(w.Attempt)}.encode())
			d.opened(ctx, w.Txn)
		}
		ctx.Put(dbPending, d.counter(ctx, 2), w.Op, dbPendingRow{Op: w.Op, Txn: w.Txn, Row: int32(w.Row)}.encode())
	case MsgDBPrepare:
		p := DecodeDBPrepare(m)
		rec, ok := ctx.Get(dbTxns, p.Txn, 0)
		if t := decodeDBTxnRow(rec); t.State == 0 || t.State == dbTxnOpen {
			if !ok {
				t.JobAttempt = int64(p.Attempt)
			}
			t.State, t.At = dbTxnPrepared, 0
			ctx.Put(dbTxns, p.Txn, 0, t.encode())
			if !ok {
				d.opened(ctx, p.Txn)
			}
		}
		ctx.Send(m.From, DBPrepare{Txn: p.Txn, Checkpoint: p.Checkpoint}.Encode(MsgDBPrepared))
	case MsgDBCommit:
		c := DecodeDBCommit(m)
		rec, _ := ctx.Get(dbTxns, c.Txn, 0)
		t := decodeDBTxnRow(rec)
		if t.State == dbTxnAborted {
			// Too late: the transaction was aborted (its timeout, or a
			// newer attempt's abort of lingering ones) and its rows are
			// gone. Say so instead of failing silently.
			ctx.Send(m.From, DBCommit{Txn: c.Txn, Attempt: c.Attempt}.EncodeFailed())
			return
		}
		if t.State == dbTxnCommitted {
			return // committing twice changes nothing
		}
		for _, id := range d.pendingOf(ctx, func(txn int64) bool { return txn == c.Txn }) {
			r, _ := ctx.Get(dbPending, id, 0)
			ctx.Delete(dbPending, id, 0)
			p := decodeDBPendingRow(r)
			d.apply(ctx, p.Op, int64(p.Row))
		}
		t.State, t.At = dbTxnCommitted, 0
		ctx.Put(dbTxns, c.Txn, 0, t.encode())
	case MsgDBAbortLingering:
		a := DecodeDBAbortLingering(m)
		txns := ctx.Rows(dbTxns)
		var lingering []int64
		for i := 0; i < txns.Len(); i++ {
			id, rec := txns.At(i)
			if t := decodeDBTxnRow(rec); (t.State == dbTxnOpen || t.State == dbTxnPrepared) && t.JobAttempt < a.JobAttempt {
				lingering = append(lingering, id)
			}
		}
		for _, txn := range lingering {
			d.abort(ctx, txn)
		}
	}
}

// pendingOf lists the pending rows whose transaction matches, in id order.
func (d *ExternalDB) pendingOf(ctx *sim.Context, match func(txn int64) bool) []int64 {
	rows := ctx.Rows(dbPending)
	var ids []int64
	for i := 0; i < rows.Len(); i++ {
		id, r := rows.At(i)
		if match(decodeDBPendingRow(r).Txn) {
			ids = append(ids, id)
		}
	}
	return ids
}

func registerExternaldb(c *roles.Catalog) {
	c.Register(&roles.Role{
		Name: "external-db",
		Doc:  "a database outside the Kafka/Flink boundary; autocommit writes, or XA-style prepare/commit; every committed row is an effect on db-rows",
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &ExternalDB{
				Upsert:     a.Enum("mode", "insert", []string{"insert", "upsert"}, "insert a row per write, or upsert on the natural key (the operation)") == "upsert",
				TxnTimeout: a.Duration("txn-timeout", "0", "a transaction not committed this long after it was opened is aborted, prepared or not (0: never)"),
			}, externalDBTables()
		},
	})
	c.RegisterMetric(&roles.MetricSpec{
		Name: "failed-commits",
		Unit: "commits",
		Doc:  "db-commit requests the external database answered db-commit-failed: their transaction was already aborted, its rows lost",
		New:  func(*sim.Topology) sim.Metric { return &failedCommits{} },
	})
}

// failedCommits counts the db-commit-failed answers in the trace.
type failedCommits struct{ n int }

// Record implements sim.Recorder.
func (x *failedCommits) Record(e *sim.Event) {
	if e.Kind == sim.EvSend && e.Msg.Kind == MsgDBCommitFailed {
		x.n++
	}
}

func (x *failedCommits) Name() string   { return "failed-commits" }
func (x *failedCommits) Value() float64 { return float64(x.n) }
