package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Messages and timers of the lock-guarded job (LockedWorker, FencedLedger).
var (
	MsgLedgerWrite  sim.MsgKind // worker → ledger: apply job K, carrying the lock's fencing token
	MsgLedgerResult sim.MsgKind // ledger → worker: 200 applied, 409 fenced off (a newer token was seen)

	TimerLockRetry sim.TimerKind // a worker that found the job's lock held asks again

	// PointAfterCheck is where a worker without a lock (NoLock) stands
	// between finding the job not done and writing it. It reuses the name
	// after-lock: a new point name would change the traces that name it
	// and the digests of the runs that crash there.
	PointAfterCheck sim.PointID
)

// LockedWorker is one replica of a job runner: every replica's scheduler
// fires job op at (op-1)·Interval, and a lock in the key store (SET job:op
// holder NX PX TTL) is meant to let only one of them run it. A run goes:
//
//  1. db-get done:op — a COMPLETED row means the job ran: stop;
//  2. db-lock job:op — granted (OK, no token: Redis hands out none), or
//     held: ask again after Retry, from step 1;
//  3. with a token counter (Tokens), db-next-token there: the fencing
//     token, a number greater than every one issued before;
//  4. (crash point after-lock, where a pause freezes the worker)
//  5. ledger-write with the token (0 without a counter); 6. on 200,
//     db-update done:op COMPLETED.
//
// The worker trusts its lock until it is done: it never checks the clock.
// If it is paused past the TTL, the lock expires, another replica takes
// it, and the paused one resumes as a zombie that still believes it holds
// the lock. Only the ledger's fencing check can stop its write.
type LockedWorker struct {
	Store     sim.NodeID
	Tokens    sim.NodeID // the fencing-token counter, when HasTokens
	HasTokens bool
	Ledger    sim.NodeID
	Interval  sim.Time
	TTL       sim.Time
	Retry     sim.Time
	// NoLock skips the lock: the worker writes as soon as it finds the job
	// not done (two reconcilers without a lease).
	NoLock bool
	// StartDelay shifts this replica's schedule (a second reconciler that
	// runs a little later).
	StartDelay sim.Time
}

// jobKey and doneKey are the key-store rows of job op: its lock, and the
// marker written when it is done.
func jobKey(op sim.OpID) int64  { return 1_000_000 + int64(op) }
func doneKey(op sim.OpID) int64 { return 2_000_000 + int64(op) }

// Start schedules the jobs on first boot: the scheduler of every replica
// fires every job.
func (w *LockedWorker) Start(ctx *sim.Context) {
	for op := 1; op <= ctx.Ops(); op++ {
		ctx.After(w.StartDelay+sim.Time(op-1)*w.Interval, sim.Timer{Kind: roles.TimerStartOp, Op: sim.OpID(op), Attempt: 1})
	}
}

// Timer starts a job, or tries a held lock again.
func (w *LockedWorker) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind == roles.TimerStartOp || t.Kind == TimerLockRetry {
		ctx.Send(w.Store, StoreCall{Key: doneKey(t.Op)}.Encode(envelope{Kind: MsgDBGet, Op: t.Op, Attempt: t.Attempt}))
	}
}

// Receive runs the step of the job that m resumes.
func (w *LockedWorker) Receive(ctx *sim.Context, m sim.Message) {
	e := envelope{Op: m.Op, Attempt: m.Attempt}
	switch m.Kind {
	case MsgDBGot:
		if got := DecodeStoreCall(m); got.Status == StoreFound && got.State == roles.KeyCompleted {
			return // the job ran
		}
		if w.NoLock {
			if ctx.CrashPoint(PointAfterCheck, &m) {
				return
			}
			ctx.Send(w.Ledger, StoreCall{Key: jobKey(m.Op)}.Encode(envelope{Kind: MsgLedgerWrite, Op: m.Op, Attempt: m.Attempt}))
			return
		}
		e.Kind = MsgDBLock
		ctx.Send(w.Store, StoreCall{Key: jobKey(m.Op), Status: int32(ctx.Self()), Payload: int64(w.TTL)}.Encode(e))
	case MsgDBLocked:
		if DecodeStoreCall(m).Status != StoreInserted {
			ctx.After(w.Retry, sim.Timer{Kind: TimerLockRetry, Op: m.Op, Attempt: m.Attempt + 1})
			return
		}
		if w.HasTokens {
			e.Kind = MsgDBNext
			ctx.Send(w.Tokens, StoreCall{Key: jobKey(m.Op)}.Encode(e))
			return
		}
		w.write(ctx, m, 0)
	case MsgDBNextOK:
		w.write(ctx, m, DecodeStoreCall(m).Value)
	case MsgLedgerResult:
		if DecodeStoreCall(m).Status != roles.StatusOK {
			return // fenced off: a newer holder ran the job
		}
		e.Kind = MsgDBUpdate
		ctx.Send(w.Store, StoreCall{Key: doneKey(m.Op), State: roles.KeyCompleted, Value: int64(m.Op)}.Encode(e))
	}
}

// write sends the job's ledger write with token, after the crash point
// where a pause freezes the holder with its lock (and token) in hand.
func (w *LockedWorker) write(ctx *sim.Context, m sim.Message, token int64) {
	if ctx.CrashPoint(PointAfterLock, &m) {
		return
	}
	ctx.Send(w.Ledger, StoreCall{Key: jobKey(m.Op), Value: token}.Encode(envelope{Kind: MsgLedgerWrite, Op: m.Op, Attempt: m.Attempt}))
}

// buildLockedworker builds a locked-worker node from its options, each declared where it is read.
func buildLockedworker(a *roles.Args) (sim.Node, []sim.TableSpec) {
	w := &LockedWorker{Store: a.Node("store", "the key store holding the job locks (role key-store)")}
	w.Tokens, w.HasTokens = a.OptionalNode("tokens", "the fencing-token counter (a key-store node of its own: a ZooKeeper zxid, an etcd revision, a database sequence); none: write with token 0")
	w.Ledger = a.Node("ledger", "the ledger the job writes to (role fenced-ledger)")
	w.Interval = a.Duration("interval", "100ms", "time between two jobs")
	w.TTL = a.Duration("ttl", "1s", "the lock's expiry (SET … PX ttl)")
	w.Retry = a.Duration("retry", "300ms", "how long a worker that found the lock held waits before it asks again")
	w.NoLock = a.Enum("lock", "on", []string{"on", "off"}, "take the job's lock (SET NX PX ttl) before writing, or write as soon as the job is found not done") == "off"
	w.StartDelay = a.Duration("start-delay", "0", "how much later than (op-1)·interval this replica fires each job")
	return w, nil
}
