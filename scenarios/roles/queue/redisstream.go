package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Message kinds and timers of the Redis Streams lesson, in a file of their
// own so the lesson does not touch the family's shared kinds. An entry is
// delivered with the family's MsgDeliver (XREADGROUP's answer).
var (
	MsgXReadGroup    sim.MsgKind   // consumer → stream: XREADGROUP GROUP g NAME COUNT 1 BLOCK block STREAMS s > (NOACK under at-most-once)
	MsgXReadTimeout  sim.MsgKind   // stream → consumer: the blocked read timed out (nil) while the pending entries list is not empty
	MsgXAck          sim.MsgKind   // consumer → stream: XACK s g ID
	MsgXAutoClaim    sim.MsgKind   // consumer → stream: XAUTOCLAIM s g NAME min-idle-time 0-0 COUNT 1
	MsgXAutoClaimed  sim.MsgKind   // stream → consumer: the entry claimed (its delivery count incremented), or none
	TimerStreamBlock sim.TimerKind // the stream's BLOCK period: blocked reads time out
)

// Entry states of a stream's entries table.
const (
	entryNew     int32 = iota // appended, not delivered to the group yet
	entryPending              // delivered, in the pending entries list (PEL) of its owner
	entryAcked                // acknowledged (XACK, or read with NOACK): out of the PEL
)

// RedisStream is a Redis stream with one consumer group (Redis 5.0+
// Streams, XAUTOCLAIM 6.2+). XADD appends an entry; XREADGROUP … > hands
// the next entry never delivered to the group to the consumer that asks
// (a blocked read waits for one, the first blocked reader first) and puts
// it in that consumer's pending entries list with a delivery count of 1 —
// unless the read says NOACK, which acknowledges it on delivery. XACK
// removes an entry from the PEL. The stream never delivers a pending
// entry again by itself: a consumer that dies before its XACK leaves the
// entry pending for ever, until a consumer claims it with XAUTOCLAIM once
// it has been idle (not delivered or claimed) for min-idle-time; a claim
// makes the claimer its owner, increments its delivery count and resets
// its idle time.
//
// A blocked read times out every Block while the PEL is not empty (the
// consumer then runs XAUTOCLAIM and reads again); while the PEL is empty a
// time-out would only be followed by the same read, so the model lets the
// read wait, and a run with nothing pending comes to rest.
type RedisStream struct {
	waiting
	Block sim.Time
}

const (
	streamEntries sim.TableID = iota // entry id → streamEntry (At: the last delivery or claim: the idle time's start)
	streamWaiters                    // arrival order → a consumer with a blocked read (Value: its node, Aux: NOACK)
	streamMeta                       // row 0: Value = the next arrival number, State = 1 while a block timer is armed
)

// streamEntry is one entry of the stream. Slots: Value = the operation;
// State = entryNew, entryPending or entryAcked; Aux = the delivery count;
// Status = the owner's node + 1 (0: none).
type streamEntry struct {
	Op         sim.OpID
	State      int32
	Deliveries int32
	Owner      sim.NodeID
	At         sim.Time
}

func (v streamEntry) encode() sim.Record {
	r := sim.Record{Value: int64(v.Op), State: v.State, Aux: int64(v.Deliveries), At: v.At}
	if v.State != entryNew {
		r.Status = int32(v.Owner) + 1
	}
	return r
}

func decodeStreamEntry(r sim.Record) streamEntry {
	return streamEntry{Op: sim.OpID(r.Value), State: r.State, Deliveries: int32(r.Aux), Owner: sim.NodeID(r.Status - 1), At: r.At}
}

// Receive serves XADD (MsgPublish), XREADGROUP, XACK and XAUTOCLAIM.
func (s *RedisStream) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPublish:
		appendPublished(ctx, streamEntries, &m, streamEntry{Op: m.Op, State: entryNew}.encode())
		s.serveWaiters(ctx)
	case MsgXReadGroup:
		noack := m.Value != 0
		if id, ok := s.nextNew(ctx); ok {
			s.deliver(ctx, id, m.From, noack)
			return
		}
		meta, _ := ctx.Get(streamMeta, 0, 0)
		meta.Value++
		ctx.Put(streamMeta, 0, 0, meta)
		ctx.Put(streamWaiters, meta.Value, 0, sim.Record{Value: int64(m.From), Aux: m.Value})
	case MsgXAck:
		if r, ok := ctx.Get(streamEntries, m.Key, m.Op); ok {
			if e := decodeStreamEntry(r); e.State == entryPending {
				e.State = entryAcked
				ctx.Put(streamEntries, m.Key, m.Op, e.encode())
			}
		}
	case MsgXAutoClaim:
		minIdle := sim.Time(m.Value)
		rows := ctx.Rows(streamEntries)
		for i := 0; i < rows.Len(); i++ {
			id, r := rows.At(i)
			e := decodeStreamEntry(r)
			if e.State != entryPending || ctx.Now()-e.At < minIdle {
				continue
			}
			e.Owner, e.Deliveries, e.At = m.From, e.Deliveries+1, ctx.Now()
			ctx.Put(streamEntries, id, e.Op, e.encode())
			ctx.Send(m.From, delivery{Offset: id, Record: roles.Payload(e.Op)}.encode(envelope{Kind: MsgXAutoClaimed, Op: e.Op, Attempt: e.Deliveries}))
			return
		}
		ctx.Send(m.From, envelope{Kind: MsgXAutoClaimed}.Message()) // nothing idle enough: no entry
	}
}

// nextNew is the lowest entry id never delivered to the group.
func (s *RedisStream) nextNew(ctx *sim.Context) (int64, bool) {
	rows := ctx.Rows(streamEntries)
	for i := 0; i < rows.Len(); i++ {
		if id, r := rows.At(i); r.State == entryNew {
			return id, true
		}
	}
	return 0, false
}

// serveWaiters hands new entries to blocked readers, first come first
// served.
func (s *RedisStream) serveWaiters(ctx *sim.Context) {
	for ctx.Rows(streamWaiters).Len() > 0 {
		id, ok := s.nextNew(ctx)
		if !ok {
			return
		}
		seq, w := ctx.Rows(streamWaiters).At(0)
		ctx.Delete(streamWaiters, seq, 0)
		s.deliver(ctx, id, sim.NodeID(w.Value), w.Aux != 0)
	}
}

// deliver answers an XREADGROUP with entry id: pending for to with a
// delivery count of 1, or acknowledged at once under NOACK.
func (s *RedisStream) deliver(ctx *sim.Context, id int64, to sim.NodeID, noack bool) {
	r, _ := ctx.Get(streamEntries, id, 0)
	e := decodeStreamEntry(r)
	e.Owner, e.Deliveries, e.State, e.At = to, 1, entryPending, ctx.Now()
	if noack {
		e.State = entryAcked
	}
	ctx.Put(streamEntries, id, e.Op, e.encode())
	ctx.Send(to, delivery{Offset: id, Record: roles.Payload(e.Op)}.encode(envelope{Kind: MsgDeliver, Op: e.Op, Attempt: 1}))
	if !noack {
		s.armBlock(ctx)
	}
}

// armBlock arms the BLOCK timer unless it is armed.
func (s *RedisStream) armBlock(ctx *sim.Context) {
	meta, _ := ctx.Get(streamMeta, 0, 0)
	if meta.State == 1 {
		return
	}
	meta.State = 1
	ctx.Put(streamMeta, 0, 0, meta)
	ctx.After(s.Block, sim.Timer{Kind: TimerStreamBlock})
}

// pending reports whether an entry is in the PEL.
func (s *RedisStream) pending(ctx *sim.Context) bool {
	rows := ctx.Rows(streamEntries)
	for i := 0; i < rows.Len(); i++ {
		if _, r := rows.At(i); r.State == entryPending {
			return true
		}
	}
	return false
}

// Timer times out the blocked reads while an entry is pending: each
// reader gets nil and runs XAUTOCLAIM.
func (s *RedisStream) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerStreamBlock {
		return
	}
	meta, _ := ctx.Get(streamMeta, 0, 0)
	meta.State = 0
	ctx.Put(streamMeta, 0, 0, meta)
	if !s.pending(ctx) {
		return
	}
	for ctx.Rows(streamWaiters).Len() > 0 {
		seq, w := ctx.Rows(streamWaiters).At(0)
		ctx.Delete(streamWaiters, seq, 0)
		ctx.Send(sim.NodeID(w.Value), envelope{Kind: MsgXReadTimeout}.Message())
	}
	s.armBlock(ctx)
}

// buildRedisstream builds a redis-stream node from its options, each declared where it is read.
func buildRedisstream(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &RedisStream{
		Block: a.PositiveDuration("block", "200ms", "XREADGROUP's BLOCK: how long a read waits for a new entry before it returns nil (the consumer then runs XAUTOCLAIM)"),
	}
	return s, []sim.TableSpec{
		{Name: "entries", Durable: true, Traced: true, States: []string{"new", "pending", "acked"}},
		{Name: "waiters", Durable: true, AgeFree: true},
		{Name: "group", Durable: true, AgeFree: true},
	}
}
