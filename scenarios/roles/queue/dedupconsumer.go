package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// DedupConsumer charges a customer at an external gateway for every
// delivered record, with its dedup keys in a Redis-like key store that is a
// node of its own (role key-store): every GET, SET NX PX and SET is a
// message, a step, and the store can be away while the consumer is not.
// Job op's keys are lock:op (the lock, with a TTL) and done:op (the
// permanent marker); the gateway gets op as its idempotency reference.
//
// The consumer commits the offset that was delivered, not one per
// operation: a record and its producer's retry are two offsets of one
// operation, delivered and processed side by side. Its calls to the key
// store and the gateway carry the delivery's offset as their correlation
// id (in Attempt, echoed by the answer, as Kafka's correlation ids are), so
// the trace's "#n" on those calls is the offset they serve, and an answer
// finds the delivery it belongs to in the process's memory.
//
//   - at-most-once: commit the offset, then charge — a crash in between
//     loses the charge; after a restart, subscribe again (consume);
//   - at-least-once: charge, then commit — a crash or a lost commit brings
//     a redelivery and a second charge;
//   - idempotent, lock-before-effect: GET done:op (DONE: commit only); SET
//     lock:op NX PX LockTTL; if it is held, do nothing (its holder is at
//     work, or crashed and the lock will expire; the broker redelivers);
//     if granted, ask the gateway by op whether a charge already happened
//     (an earlier holder may have crashed after it) and charge only if
//     not; SET done:op DONE; commit;
//   - idempotent, check-call-mark: GET done:op; if absent, charge, SET
//     done:op DONE, commit. A crash between the charge and the SET, or two
//     copies of one record whose GETs both come before the SET, charges
//     twice.
type DedupConsumer struct {
	Broker        sim.NodeID
	Gateway       sim.NodeID
	Store         sim.NodeID
	CheckCallMark bool
	LockTTL       sim.Time
}

const (
	dedupPending sim.TableID = iota // offset → how many of its deliveries are in progress (volatile: the process's memory)
	dedupSeen                       // offsets seen: at-most-once transport dedup
)

// dedupLockKey and dedupDoneKey are job op's rows in the key store.
func dedupLockKey(op sim.OpID) int64 { return 1_000_000 + int64(op) }
func dedupDoneKey(op sim.OpID) int64 { return 2_000_000 + int64(op) }

// Start, under at-most-once, subscribes again after a restart (consume:
// a broker delivering with a prefetch of one requeues what it delivered
// to the crashed incarnation); a row of the seen table (offsets start at
// 1) tells a restart from the first boot. Otherwise it does nothing: the
// broker redelivers what was not committed.
func (c *DedupConsumer) Start(ctx *sim.Context) {
	if ctx.Semantics() != sim.AtMostOnce {
		return
	}
	if _, restarted := ctx.Get(dedupSeen, bootedKey, 0); restarted {
		ctx.Send(c.Broker, envelope{Kind: MsgConsume}.Message())
		return
	}
	ctx.Put(dedupSeen, bootedKey, 0, sim.Record{})
}

// bootedKey is the seen table's row written at the first boot.
const bootedKey int64 = 0

// Timer is unused.
func (c *DedupConsumer) Timer(*sim.Context, sim.Timer) {}

// Receive runs the step of a delivery that m starts or resumes.
func (c *DedupConsumer) Receive(ctx *sim.Context, m sim.Message) {
	e := envelope{Op: m.Op, Attempt: m.Attempt} // Attempt: the delivery's offset (see deliver)
	switch m.Kind {
	case MsgDeliver:
		c.deliver(ctx, m)
	case payments.MsgDBGot:
		if got := payments.DecodeStoreCall(m); got.Status == payments.StoreFound && got.State == roles.KeyCompleted {
			c.finish(ctx, m) // a duplicate: acknowledge it, charge nothing
			return
		}
		if c.CheckCallMark {
			c.charge(ctx, m, payments.MsgCharge)
			return
		}
		e.Kind = payments.MsgDBLock
		ctx.Send(c.Store, payments.StoreCall{Key: dedupLockKey(m.Op), Status: int32(ctx.Self()), Payload: int64(c.LockTTL)}.Encode(e))
	case payments.MsgDBLocked:
		if payments.DecodeStoreCall(m).Status != payments.StoreInserted {
			return // held: by a live holder, or by a crashed one until the lock expires
		}
		if ctx.CrashPoint(payments.PointAfterLock, &m) {
			return
		}
		c.charge(ctx, m, payments.MsgLookup) // did an earlier holder charge?
	case payments.MsgLookupResult:
		if payments.DecodeProviderCall(m).Status == roles.StatusOK {
			c.mark(ctx, m) // charged before a crash: record it, charge nothing
			return
		}
		c.charge(ctx, m, payments.MsgCharge)
	case payments.MsgChargeResult:
		c.charged(ctx, m)
	case payments.MsgDBUpdated:
		c.finish(ctx, m)
	}
}

func (c *DedupConsumer) deliver(ctx *sim.Context, m sim.Message) {
	d := decodeDelivery(m)
	switch ctx.Semantics() {
	case sim.AtMostOnce:
		if transportDup(ctx, dedupSeen, d.Offset, m.Op) {
			return
		}
		c.commit(ctx, m, d.Offset)
		// The crash point names the record (its offset), not the
		// delivery: the seen table lets each offset through once, and a
		// delivery's number counts those to a consumer that was down.
		m.Attempt = int32(d.Offset)
		if ctx.CrashPoint(PointAfterCommit, &m) {
			return
		}
		c.charge(ctx, m, payments.MsgCharge)
		return
	}
	r, _ := ctx.Get(dedupPending, d.Offset, m.Op)
	ctx.Put(dedupPending, d.Offset, m.Op, sim.Record{Value: r.Value + 1})
	m.Attempt = int32(d.Offset) // the correlation id of the calls that serve this delivery
	if ctx.Semantics() == sim.AtLeastOnce {
		c.charge(ctx, m, payments.MsgCharge)
		return
	}
	ctx.Send(c.Store, payments.StoreCall{Key: dedupDoneKey(m.Op)}.Encode(envelope{Kind: payments.MsgDBGet, Op: m.Op, Attempt: m.Attempt}))
}

// charge calls the gateway (a charge or a lookup). Under the idempotent
// semantics the call carries op as its reference (the Idempotency-Key a
// gateway with provider=idempotent dedups charges by); at-most-once and
// at-least-once consumers send no key.
func (c *DedupConsumer) charge(ctx *sim.Context, m sim.Message, kind sim.MsgKind) {
	var ref int64
	if roles.Idempotent(ctx.Semantics()) {
		ref = int64(m.Op)
	}
	ctx.Send(c.Gateway, payments.ProviderCall{Reference: ref, Body: roles.Payload(m.Op)}.Encode(envelope{Kind: kind, Op: m.Op, Attempt: m.Attempt}))
}

// charged finishes a charge: mark done:op (idempotent semantics), then
// commit the offset.
func (c *DedupConsumer) charged(ctx *sim.Context, m sim.Message) {
	sem := ctx.Semantics()
	if sem == sim.AtMostOnce {
		return // committed before the charge
	}
	point := payments.PointAfterCharge
	if roles.Idempotent(sem) && c.CheckCallMark {
		point = PointBeforeMark
	}
	if ctx.CrashPoint(point, &m) {
		return
	}
	if roles.Idempotent(sem) {
		c.mark(ctx, m)
		return
	}
	c.finish(ctx, m)
}

// mark writes done:op DONE; the commit follows its reply.
func (c *DedupConsumer) mark(ctx *sim.Context, m sim.Message) {
	e := envelope{Kind: payments.MsgDBUpdate, Op: m.Op, Attempt: m.Attempt}
	ctx.Send(c.Store, payments.StoreCall{Key: dedupDoneKey(m.Op), State: roles.KeyCompleted, Value: int64(m.Op)}.Encode(e))
}

// finish commits the offset the delivery was for (the answer's
// correlation id), if this process still holds that delivery (a crash
// forgot it: the redelivery will find DONE, or charge again).
func (c *DedupConsumer) finish(ctx *sim.Context, m sim.Message) {
	offset := int64(m.Attempt)
	r, ok := ctx.Get(dedupPending, offset, m.Op)
	if !ok {
		return
	}
	if r.Value > 1 {
		ctx.Put(dedupPending, offset, m.Op, sim.Record{Value: r.Value - 1})
	} else {
		ctx.Delete(dedupPending, offset, m.Op)
	}
	c.commit(ctx, m, offset)
}

func (c *DedupConsumer) commit(ctx *sim.Context, m sim.Message, offset int64) {
	ctx.Send(c.Broker, commitOf(offset, &m))
}

// buildDedupconsumer builds a dedup-consumer node from its options, each declared where it is read.
func buildDedupconsumer(a *roles.Args) (sim.Node, []sim.TableSpec) {
	return &DedupConsumer{
		Broker:  consumerBroker(a),
		Gateway: a.Node("gateway", "the card gateway it charges (provider: lookup)"),
		Store:   a.Node("store", "the Redis-like key store holding the dedup keys (role key-store)"),
		CheckCallMark: a.Enum("dedup", "lock-before-effect", []string{"lock-before-effect", "check-call-mark"},
			"SET lock NX PX before the charge (and ask the gateway before charging), or GET, charge, then SET DONE") == "check-call-mark",
		LockTTL: a.Duration("lock-ttl", "2s", "the lock's expiry (SET … PX): how long a crashed holder's lock blocks the record"),
	}, []sim.TableSpec{{Name: "pending", AgeFree: true}, {Name: "seen", Durable: true, AgeFree: true}}
}
