package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// RetainingConsumer is an idempotent consumer whose dedup store has a
// retention and a size: the rows a real key store keeps, and what it
// costs. Under the idempotent semantics it looks the operation up in its
// durable dedup table and, if absent, writes the row and the billing row in
// one local transaction, then commits. A row lives TTL (0 = forever): a
// sweep every Sweep removes the rows whose TTL is over (expired), and a
// lookup ignores an expired row. With Capacity > 0 the store holds at most
// that many rows: inserting into a full store first sweeps, then evicts the
// oldest row — a key removed before its retention, as a cache under
// memory pressure does. Under at-least-once there is no store at all.
type RetainingConsumer struct {
	waiting
	Broker   sim.NodeID
	TTL      sim.Time
	Sweep    sim.Time
	Capacity int
}

const (
	retainDedup sim.TableID = iota // operation → processed (At: when)
	retainSweep                    // row 0 while a sweep timer is armed (volatile)
)

// Timer sweeps the expired rows, and re-arms while rows remain.
func (c *RetainingConsumer) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerSweep {
		return
	}
	ctx.Delete(retainSweep, 0, 0)
	c.sweep(ctx)
	c.armSweep(ctx)
}

// sweep expires every row whose TTL is over.
func (c *RetainingConsumer) sweep(ctx *sim.Context) {
	if c.TTL <= 0 {
		return
	}
	rows := ctx.Rows(retainDedup)
	var expired []int64
	for i := 0; i < rows.Len(); i++ {
		if key, r := rows.At(i); ctx.Now()-r.At >= c.TTL {
			expired = append(expired, key)
		}
	}
	for _, key := range expired {
		ctx.Expire(retainDedup, key, sim.OpID(key))
	}
}

// armSweep sets the sweep timer when there are rows to sweep and none is set.
func (c *RetainingConsumer) armSweep(ctx *sim.Context) {
	if c.TTL <= 0 || ctx.Rows(retainDedup).Len() == 0 {
		return
	}
	if _, armed := ctx.Rows(retainSweep).Get(0); armed {
		return
	}
	ctx.Put(retainSweep, 0, 0, sim.Record{State: 1})
	ctx.After(c.Sweep, sim.Timer{Kind: TimerSweep})
}

// makeRoom evicts the oldest row while the store is full.
func (c *RetainingConsumer) makeRoom(ctx *sim.Context) {
	if c.Capacity <= 0 || ctx.Rows(retainDedup).Len() < c.Capacity {
		return
	}
	c.sweep(ctx)
	rows := ctx.Rows(retainDedup)
	for rows.Len() >= c.Capacity {
		oldest, oldestAt := int64(0), sim.Time(-1)
		for i := 0; i < rows.Len(); i++ {
			if key, r := rows.At(i); oldestAt < 0 || r.At < oldestAt {
				oldest, oldestAt = key, r.At
			}
		}
		ctx.Delete(retainDedup, oldest, sim.OpID(oldest)) // evicted, not expired
	}
}

// Receive bills one delivered record, once per operation while its row lives.
func (c *RetainingConsumer) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgDeliver {
		return
	}
	if !roles.Idempotent(ctx.Semantics()) {
		ctx.Effect(SinkBilling, m.Op, decodeDelivery(m).Record)
		commitDelivery(ctx, c.Broker, &m)
		return
	}
	key := int64(m.Op)
	r, seen := ctx.Get(retainDedup, key, m.Op)
	if seen && c.TTL > 0 && ctx.Now()-r.At >= c.TTL {
		ctx.Expire(retainDedup, key, m.Op)
		seen = false
	}
	if !seen {
		c.makeRoom(ctx)
		ctx.Put(retainDedup, key, m.Op, processedRow())
		ctx.Effect(SinkBilling, m.Op, decodeDelivery(m).Record)
		c.armSweep(ctx)
	}
	commitDelivery(ctx, c.Broker, &m)
}

// buildRetainingconsumer builds a retaining-consumer node from its options, each declared where it is read.
func buildRetainingconsumer(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &RetainingConsumer{
		Broker:   consumerBroker(a),
		TTL:      a.Duration("ttl", "0", "how long a dedup row is kept (0 = forever)"),
		Sweep:    a.PositiveDuration("sweep", "5s", "how often expired rows are removed"),
		Capacity: int(a.Int("capacity", 0, 0, 1_000_000, "the most rows the store holds (0 = unbounded); a full store evicts its oldest row")),
	}
	return c, []sim.TableSpec{roles.StoreTable("dedup", true, roles.KeyStates), {Name: "sweep"}}
}
