package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// StreamConsumer is one consumer of a Redis stream's consumer group, a
// loop on one connection: XREADGROUP … > (blocking), process the entry,
// XACK it, read again; when a blocked read times out, XAUTOCLAIM the
// group's entries idle for MinIdle (another consumer's, or its own from
// before a crash), process what it claims, and read again. Processing
// inserts a row into the billing table of a database the consumers share
// (a node of its own):
//
//   - at-most-once: the read says NOACK — the entry never enters the
//     pending entries list — and the row is inserted after it: a crash in
//     between loses the entry, and nothing claims it;
//   - at-least-once: INSERT the row, then XACK: a crash in between leaves
//     the entry pending; after MinIdle a consumer claims it (delivery
//     count 2) and inserts a second row;
//   - idempotent: INSERT … ON CONFLICT (op) DO NOTHING, the entry's
//     business key as the dedup key, unique in the table: the row and the
//     dedup key are one statement, and a claimed entry whose row exists
//     inserts nothing; then XACK.
type StreamConsumer struct {
	Stream  sim.NodeID
	DB      sim.NodeID
	MinIdle sim.Time
}

const streamConsumerCurrent sim.TableID = 0 // row 0: the entry in process (Value: its id; volatile, lost with a crash)

// Start reads: the restarted consumer reads new entries; its own pending
// entry from before a crash comes back by XAUTOCLAIM.
func (c *StreamConsumer) Start(ctx *sim.Context) { c.read(ctx) }

// Timer is unused.
func (c *StreamConsumer) Timer(*sim.Context, sim.Timer) {}

func (c *StreamConsumer) read(ctx *sim.Context) {
	m := envelope{Kind: MsgXReadGroup}.Message()
	if ctx.Semantics() == sim.AtMostOnce {
		m.Value = 1 // NOACK
	}
	ctx.Send(c.Stream, m)
}

// Receive handles the stream's and the database's answers.
func (c *StreamConsumer) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgDeliver:
		c.process(ctx, m)
	case MsgXReadTimeout:
		ctx.Send(c.Stream, sim.Message{Kind: MsgXAutoClaim, Value: int64(c.MinIdle)})
	case MsgXAutoClaimed:
		if m.Op == 0 { // nothing idle enough
			c.read(ctx)
			return
		}
		c.process(ctx, m)
	case payments.MsgDBInserted:
		if ctx.Semantics() == sim.AtMostOnce { // acknowledged on delivery: nothing to ack
			c.read(ctx)
			return
		}
		if ctx.CrashPoint(PointAfterEffect, &m) {
			return
		}
		cur, _ := ctx.Get(streamConsumerCurrent, 0, m.Op)
		ctx.Send(c.Stream, offsetCommit{Offset: cur.Value}.encode(envelope{Kind: MsgXAck, Op: m.Op, Attempt: m.Attempt}))
		c.read(ctx)
	}
}

// process inserts the entry's row (read or claimed; its delivery count is
// the message's attempt, passed on to the insert).
func (c *StreamConsumer) process(ctx *sim.Context, m sim.Message) {
	if ctx.Semantics() == sim.AtMostOnce && ctx.CrashPoint(PointAfterCommit, &m) { // NOACK: acknowledged on delivery
		return
	}
	ctx.Put(streamConsumerCurrent, 0, m.Op, sim.Record{Value: decodeDelivery(m).Offset})
	kind := payments.MsgDBInsert
	if roles.Idempotent(ctx.Semantics()) {
		kind = payments.MsgDBInsertUnique
	}
	ctx.Send(c.DB, payments.StoreCall{Key: int64(m.Op), State: roles.KeyCompleted}.Encode(envelope{Kind: kind, Op: m.Op, Attempt: m.Attempt}))
}

func registerStreamconsumer(c *roles.Catalog) {
	c.Register(&roles.Role{
		Name: "stream-consumer",
		Doc: "a Redis Streams consumer: XREADGROUP, insert a billing row, XACK; XAUTOCLAIM entries idle past min-idle-time when a blocked read times out; " +
			"under idempotent semantics the insert is INSERT … ON CONFLICT (op) DO NOTHING",
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			c := &StreamConsumer{
				Stream:  a.Node("stream", "the Redis stream"),
				DB:      a.Node("db", "the database of the billing table"),
				MinIdle: a.PositiveDuration("min-idle", "1s", "XAUTOCLAIM's min-idle-time: an entry pending this long without a delivery or claim is taken over"),
			}
			return c, []sim.TableSpec{{Name: "current"}}
		},
	})
	c.Register(&roles.Role{
		Name: "billing-db",
		Doc: "the billing table as a database node of its own (a key-store): every row an insert creates is an effect on billing; " +
			"db-insert has no unique constraint, db-insert-if-absent is INSERT … ON CONFLICT (op) DO NOTHING",
		Store: true,
		New: func(*roles.Args) (sim.Node, []sim.TableSpec) {
			return &payments.KeyStore{CountInserts: true, InsertSink: SinkBilling}, payments.KeyStoreTables()
		},
	})
}
