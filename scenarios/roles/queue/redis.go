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
	redisKeys     sim.TableID = iota // op → {State, Value: owner session}
	redisInflight                    // op → {Value: offset to commit}: volatile, the process's memory
	redisSession                     // row 0: {Value: this process's session}
	redisSeen                        // offsets seen: at-most-once transport dedup
)

// Start begins a new session: locks of earlier sessions are now known to
// be orphaned.
func (c *RedisConsumer) Start(ctx *sim.Context) {
	s, _ := ctx.Get(redisSession, 0, 0)
	s.Value++
	s.At = 0
	ctx.Put(redisSession, 0, 0, s)
}

// Timer is unused: the broker redelivers what was not committed.
func (c *RedisConsumer) Timer(*sim.Context, sim.Timer) {}

func (c *RedisConsumer) session(ctx *sim.Context) int64 {
	r, _ := ctx.Rows(redisSession).Get(0)
	return r.Value
}

// get reads op's key; a key older than the TTL has expired (Redis deleted it).
func (c *RedisConsumer) get(ctx *sim.Context, op sim.OpID) (sim.Record, bool) {
	r, ok := ctx.Get(redisKeys, int64(op), op)
	if ok && c.TTL > 0 && ctx.Now()-r.At >= c.TTL {
		ctx.Expire(redisKeys, int64(op), op)
		return sim.Record{}, false
	}
	return r, ok
}

func (c *RedisConsumer) commit(ctx *sim.Context, op sim.OpID, attempt int32, offset int64) {
	ctx.Send(c.Broker, sim.Message{Kind: MsgCommit, Op: op, Attempt: attempt, Key: offset})
}

func (c *RedisConsumer) charge(ctx *sim.Context, m *sim.Message) {
	ctx.Send(c.Gateway, sim.Message{Kind: payments.MsgCharge, Op: m.Op, Attempt: m.Attempt, Key: int64(m.Op), Payload: m.Payload})
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
	switch ctx.Semantics() {
	case sim.AtMostOnce:
		if transportDup(ctx, redisSeen, m.Key, m.Op) {
			return
		}
		c.commit(ctx, m.Op, m.Attempt, m.Key)
		if ctx.CrashPoint(PointAfterCommit, &m) {
			return
		}
		c.charge(ctx, &m)
		return
	case sim.AtLeastOnce:
		ctx.Put(redisInflight, int64(m.Op), m.Op, sim.Record{Value: m.Key})
		c.charge(ctx, &m)
		return
	}
	r, ok := c.get(ctx, m.Op)
	switch {
	case ok && r.State == redisDone:
		c.commit(ctx, m.Op, m.Attempt, m.Key) // a duplicate: acknowledge it, charge nothing
		return
	case ok && r.Value == c.session(ctx):
		return // PROCESSING by this process: the charge is in flight
	case ok:
		// PROCESSING by a session that crashed: take the lock over and ask
		// the gateway by the same key what happened.
		ctx.Put(redisKeys, int64(m.Op), m.Op, sim.Record{State: redisProcessing, Value: c.session(ctx), At: r.At})
		ctx.Put(redisInflight, int64(m.Op), m.Op, sim.Record{Value: m.Key})
		ctx.Send(c.Gateway, sim.Message{Kind: payments.MsgLookup, Op: m.Op, Attempt: m.Attempt, Key: int64(m.Op), Payload: m.Payload})
		return
	}
	if !c.CheckCallMark {
		ctx.Put(redisKeys, int64(m.Op), m.Op, sim.Record{State: redisProcessing, Value: c.session(ctx)}) // SET NX EX
		if ctx.CrashPoint(payments.PointAfterLock, &m) {
			return
		}
	}
	ctx.Put(redisInflight, int64(m.Op), m.Op, sim.Record{Value: m.Key})
	c.charge(ctx, &m)
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
		ctx.Put(redisKeys, int64(m.Op), m.Op, sim.Record{State: redisDone, Value: c.session(ctx)}) // SET … EX: expiry renewed
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
	c.commit(ctx, m.Op, m.Attempt, f.Value)
}

// resolve finishes a takeover: the gateway says whether the orphaned
// charge happened.
func (c *RedisConsumer) resolve(ctx *sim.Context, m sim.Message) {
	r, ok := c.get(ctx, m.Op)
	if !ok || r.State != redisProcessing || r.Value != c.session(ctx) {
		return
	}
	if m.Status == roles.StatusOK { // charged before the crash: record it, charge nothing
		ctx.Put(redisKeys, int64(m.Op), m.Op, sim.Record{State: redisDone, Value: c.session(ctx)})
		c.finish(ctx, m)
		return
	}
	c.charge(ctx, &m) // never charged: charge now, under the same key
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
