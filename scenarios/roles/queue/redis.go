package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// Redis key states of the RedisConsumer.
const (
	redisProcessing int32 = iota + 1 // SET op:K PROCESSING NX EX ttl succeeded; the charge may or may not have happened
	redisDone                        // the charge is known to have happened
)

var redisStates = []string{"", "PROCESSING", "DONE"}

// RedisConsumer charges a customer at an external gateway for every
// delivered record, with a Redis-style dedup store in front of the charge.
// The store stands for a Redis with persistence: a separate process, so
// the consumer's crash does not empty it. Keys expire TTL after they were
// last written, as with SET … EX.
//
//   - at-most-once: commit the offset, then charge — a crash in between
//     loses the charge;
//   - at-least-once: charge, then commit — a crash or a lost commit brings
//     a redelivery and a second charge;
//   - idempotent, lock-before-effect: SET op:K PROCESSING NX EX ttl before
//     the gateway is called, with the consumer's session as the value; the
//     gateway gets K as its idempotency reference. When the charge returns,
//     SET op:K DONE, then commit. A delivery that finds DONE only commits;
//     one that finds PROCESSING of the live session does nothing (the
//     charge is in flight; the broker will redeliver); one that finds
//     PROCESSING of a dead session takes the lock over and asks the gateway
//     by K whether the charge happened — it never charges blindly;
//   - idempotent, check-call-mark: GET op:K; if absent, charge, then SET
//     op:K DONE, then commit. A crash between the charge and the SET, or two
//     copies of one record arriving together, charges twice.
type RedisConsumer struct {
	Broker        sim.NodeID
	Gateway       sim.NodeID
	CheckCallMark bool
	TTL           sim.Time // 0 = keys never expire
}

const (
	redisKeys     sim.TableID = iota // op → redisKeyRow
	redisInflight                    // op → inflightRow: volatile, the process's memory
	redisSession                     // row 0: consumerSessionRow
	redisSeen                        // offsets seen: at-most-once transport dedup
)

// Start begins a new session: locks of earlier sessions are now known to
// be orphaned.
func (c *RedisConsumer) Start(ctx *sim.Context) {
	rec, _ := ctx.Get(redisSession, 0, 0)
	s := decodeConsumerSessionRow(rec)
	s.Session++
	s.At = 0
	ctx.Put(redisSession, 0, 0, s.encode())
}

// Timer is unused: the broker redelivers what was not committed.
func (c *RedisConsumer) Timer(*sim.Context, sim.Timer) {}

func (c *RedisConsumer) session(ctx *sim.Context) int64 {
	r, _ := ctx.Rows(redisSession).Get(0)
	return decodeConsumerSessionRow(r).Session
}

// get reads op's key; a key older than the TTL has expired (Redis deleted it).
func (c *RedisConsumer) get(ctx *sim.Context, op sim.OpID) (redisKeyRow, bool) {
	rec, ok := ctx.Get(redisKeys, int64(op), op)
	r := decodeRedisKeyRow(rec)
	if ok && c.TTL > 0 && ctx.Now()-r.At >= c.TTL {
		ctx.Expire(redisKeys, int64(op), op)
		return redisKeyRow{}, false
	}
	return r, ok
}

func (c *RedisConsumer) commit(ctx *sim.Context, op sim.OpID, attempt int32, offset int64) {
	ctx.Send(c.Broker, offsetCommit{Offset: offset}.encode(envelope{Kind: MsgCommit, Op: op, Attempt: attempt}))
}

// charge asks the gateway to charge record under op's reference (K = op).
func (c *RedisConsumer) charge(ctx *sim.Context, op sim.OpID, attempt int32, record int64) {
	ctx.Send(c.Gateway, payments.ProviderCall{Reference: int64(op), Body: record}.Encode(payments.MsgCharge, op, attempt))
}

// Receive handles deliveries and the gateway's answers.
func (c *RedisConsumer) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgDeliver:
		c.deliver(ctx, m)
	case payments.MsgChargeResult:
		c.charged(ctx, m)
	case payments.MsgLookupResult:
		c.resolve(ctx, m)
	}
}

func (c *RedisConsumer) deliver(ctx *sim.Context, m sim.Message) {
	d := decodeDelivery(m)
	switch ctx.Semantics() {
	case sim.AtMostOnce:
		if transportDup(ctx, redisSeen, d.Offset, m.Op) {
			return
		}
		c.commit(ctx, m.Op, m.Attempt, d.Offset)
		if ctx.CrashPoint(PointAfterCommit, &m) {
			return
		}
		c.charge(ctx, m.Op, m.Attempt, d.Record)
		return
	case sim.AtLeastOnce:
		ctx.Put(redisInflight, int64(m.Op), m.Op, inflightRow{Offset: d.Offset}.encode())
		c.charge(ctx, m.Op, m.Attempt, d.Record)
		return
	}
	r, ok := c.get(ctx, m.Op)
	switch {
	case ok && r.State == redisDone:
		c.commit(ctx, m.Op, m.Attempt, d.Offset) // a duplicate: acknowledge it, charge nothing
		return
	case ok && r.Session == c.session(ctx):
		return // PROCESSING by this process: the charge is in flight
	case ok:
		// PROCESSING by a session that crashed: take the lock over and ask
		// the gateway by the same key what happened.
		ctx.Put(redisKeys, int64(m.Op), m.Op, redisKeyRow{State: redisProcessing, Session: c.session(ctx), At: r.At}.encode())
		ctx.Put(redisInflight, int64(m.Op), m.Op, inflightRow{Offset: d.Offset}.encode())
		ctx.Send(c.Gateway, payments.ProviderCall{Reference: int64(m.Op), Body: d.Record}.Encode(payments.MsgLookup, m.Op, m.Attempt))
		return
	}
	if !c.CheckCallMark {
		ctx.Put(redisKeys, int64(m.Op), m.Op, redisKeyRow{State: redisProcessing, Session: c.session(ctx)}.encode()) // SET NX EX
		if ctx.CrashPoint(payments.PointAfterLock, &m) {
			return
		}
	}
	ctx.Put(redisInflight, int64(m.Op), m.Op, inflightRow{Offset: d.Offset}.encode())
	c.charge(ctx, m.Op, m.Attempt, d.Record)
}

// charged finishes a charge: mark the key DONE (idempotent semantics),
// then commit the offset.
func (c *RedisConsumer) charged(ctx *sim.Context, m sim.Message) {
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
		ctx.Put(redisKeys, int64(m.Op), m.Op, redisKeyRow{State: redisDone, Session: c.session(ctx)}.encode()) // SET … EX: expiry renewed
	}
	c.finish(ctx, m)
}

// finish commits the offset the charge was for, if this process remembers it.
func (c *RedisConsumer) finish(ctx *sim.Context, m sim.Message) {
	f, ok := ctx.Get(redisInflight, int64(m.Op), m.Op)
	if !ok {
		return // a result for an earlier process: the redelivery will find DONE
	}
	ctx.Delete(redisInflight, int64(m.Op), m.Op)
	c.commit(ctx, m.Op, m.Attempt, decodeInflightRow(f).Offset)
}

// resolve finishes a takeover: the gateway says whether the orphaned
// charge happened.
func (c *RedisConsumer) resolve(ctx *sim.Context, m sim.Message) {
	r, ok := c.get(ctx, m.Op)
	if !ok || r.State != redisProcessing || r.Session != c.session(ctx) {
		return
	}
	answer := payments.DecodeProviderCall(m)
	if answer.Status == roles.StatusOK { // charged before the crash: record it, charge nothing
		ctx.Put(redisKeys, int64(m.Op), m.Op, redisKeyRow{State: redisDone, Session: c.session(ctx)}.encode())
		c.finish(ctx, m)
		return
	}
	c.charge(ctx, m.Op, m.Attempt, answer.Body) // never charged: charge now, under the same key
}

var (
	redisConsumerBroker  = roles.Node("broker", "where commits go")
	redisConsumerGateway = roles.Node("gateway", "the card gateway it charges (provider: lookup)")
	redisConsumerDedup   = roles.Enum("dedup", "lock-before-effect", []string{"lock-before-effect", "check-call-mark"}, "SET NX PROCESSING before the charge, or GET, charge, then SET DONE")
	redisConsumerTTL     = roles.Duration("ttl", "24h", "the keys' expiry (SET … EX); 0 = never")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "redis-consumer",
		Doc:     "charges at a gateway for every delivered record, behind a Redis-style dedup store (SET NX with expiry): lock-before-effect or check-call-mark",
		Options: []roles.Option{redisConsumerBroker, redisConsumerGateway, redisConsumerDedup, redisConsumerTTL},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			c := &RedisConsumer{
				Broker: redisConsumerBroker.Get(a), Gateway: redisConsumerGateway.Get(a),
				CheckCallMark: redisConsumerDedup.Get(a) == "check-call-mark",
				TTL:           redisConsumerTTL.Get(a),
			}
			return c, []sim.TableSpec{
				roles.StoreTable("redis", true, redisStates),
				{Name: "inflight"},
				{Name: "session", Durable: true},
				{Name: "seen", Durable: true},
			}
		},
	})
}
