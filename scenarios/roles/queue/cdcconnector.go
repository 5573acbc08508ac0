package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// TimerOffsetFlush is a CDC connector's periodic flush of its source
// offset (Kafka Connect's offset.flush.interval.ms).
var TimerOffsetFlush sim.TimerKind

// CDCConnector is a change-data-capture source connector (Debezium on
// Kafka Connect) reading an outbox table from the database's log and
// emitting every new row to the broker, in order.
//
// It keeps the position of the last row the broker acknowledged in
// memory, and writes it to its durable offset store only on a flush,
// FlushInterval after the first unflushed progress (Kafka Connect's
// offset.flush.interval.ms, 60 s by default). A crash loses the unflushed
// part: the restarted connector resumes from the last flushed offset and
// emits every row captured since once more. Its producer, too, retries a
// publish whose ack was lost. The connector gives at-least-once delivery:
// consumers dedupe by the outbox event id.
//
// With Slot=dropped the replication slot is gone when the connector comes
// back (dropped, or invalidated when the database removed the log it
// needed): the stored offset points at nothing, and the connector takes a
// new snapshot of the table (snapshot.mode=when_needed) — every row emitted
// again.
type CDCConnector struct {
	Service       sim.NodeID
	Broker        sim.NodeID
	Timeout       sim.Time
	FlushInterval sim.Time
	SlotDropped   bool
}

const (
	cdcOffsets  sim.TableID = iota // row 0: positionRow, the flushed source offset (durable)
	cdcAttempts                    // op → publishes so far (durable, so attempts keep counting across restarts)
	cdcPosition                    // row 0: positionRow, the last row acknowledged (volatile: in memory)
	cdcState                       // row 0: relayStateRow (volatile)
	cdcFlushing                    // row 0 present: a flush is scheduled (volatile)
)

// cdcRelay publishes through the attempt and state tables.
var cdcRelay = relayTables{attempts: cdcAttempts, stateTable: cdcState}

// Start resumes from the last flushed offset — or from the beginning, a
// snapshot, when the replication slot was dropped.
func (c *CDCConnector) Start(ctx *sim.Context) {
	off, _ := ctx.Get(cdcOffsets, 0, 0)
	from := decodePositionRow(off).Sequence
	if c.SlotDropped {
		from = 0
	}
	ctx.Put(cdcPosition, 0, 0, positionRow{Sequence: from}.encode())
	c.fetch(ctx)
}

func (c *CDCConnector) position(ctx *sim.Context) int64 {
	rec, _ := ctx.Get(cdcPosition, 0, 0)
	return decodePositionRow(rec).Sequence
}

func (c *CDCConnector) fetch(ctx *sim.Context) {
	ctx.Put(cdcState, 0, 0, relayStateRow{Phase: relayFetching}.encode())
	ctx.Send(c.Service, fetch{Position: c.position(ctx) + 1}.encode(envelope{Kind: MsgOutboxFetch}))
}

func (c *CDCConnector) publish(ctx *sim.Context, op sim.OpID, seq, record int64) {
	cdcRelay.publish(ctx, c.Broker, c.Timeout, true, op, seq, record)
}

// Receive handles the service's notifications, the outbox rows it reads and
// the broker's acks.
func (c *CDCConnector) Receive(ctx *sim.Context, m sim.Message) {
	st := cdcRelay.state(ctx, m.Op)
	switch m.Kind {
	case MsgOutboxNotify:
		if st.fetches(m) {
			c.fetch(ctx)
		}
	case MsgOutboxRow:
		if row, ok := cdcRelay.nextRow(ctx, st, m, c.position(ctx)); ok {
			c.publish(ctx, m.Op, row.Position, row.Record)
		}
	case MsgPublishAck:
		if st.acked(ctx, &m) { // a crash at after-publish: emitted and acknowledged, the offset not flushed
			ctx.Put(cdcPosition, 0, m.Op, positionRow{Sequence: st.Sequence}.encode())
			c.scheduleFlush(ctx, m.Op)
			c.fetch(ctx)
		}
	}
}

// scheduleFlush arranges a flush FlushInterval from now, unless one is
// already due: the offset store is written at most once per interval.
func (c *CDCConnector) scheduleFlush(ctx *sim.Context, op sim.OpID) {
	if _, due := ctx.Get(cdcFlushing, 0, op); due {
		return
	}
	ctx.Put(cdcFlushing, 0, op, sim.Record{State: 1})
	ctx.After(c.FlushInterval, sim.Timer{Kind: TimerOffsetFlush})
}

// Timer flushes the source offset, or republishes an unacknowledged row.
func (c *CDCConnector) Timer(ctx *sim.Context, t sim.Timer) {
	switch t.Kind {
	case TimerOffsetFlush:
		ctx.Delete(cdcFlushing, 0, 0)
		ctx.Put(cdcOffsets, 0, 0, positionRow{Sequence: c.position(ctx)}.encode())
	case roles.TimerRetry:
		if cdcRelay.unacked(ctx, t) {
			c.publish(ctx, t.Op, t.Key, roles.Payload(t.Op))
		}
	}
}

// buildCdcconnector builds a cdc-connector node from its options, each declared where it is read.
func buildCdcconnector(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &CDCConnector{
		Service:       a.Node("service", "the outbox-service whose outbox table it captures"),
		Broker:        a.Node("broker", "where it emits the rows"),
		Timeout:       a.PositiveDuration("timeout", "1s", "how long its producer waits for the broker's ack before publishing again"),
		FlushInterval: a.Duration("flush-interval", "60s", "how long after progress the source offset is flushed (offset.flush.interval.ms, default 60 s)"),
		SlotDropped: a.Enum("slot", "kept", []string{"kept", "dropped"},
			"kept: a restart resumes from the flushed offset; dropped: the replication slot is gone and a restart re-snapshots the table") == "dropped",
	}
	return c, []sim.TableSpec{
		{Name: "offsets", Durable: true, Traced: true, AgeFree: true},
		{Name: "attempts", Durable: true, AgeFree: true},
		{Name: "position", AgeFree: true},
		{Name: "state", AgeFree: true},
		{Name: "flushing", AgeFree: true},
	}
}
