package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// OutboxRelay reads the service's outbox table in order and publishes each
// row to the broker, remembering in a durable position how far it got (as a
// change-data-capture connector keeps its log position).
//
//   - at-most-once: the position is saved before the publish, which is
//     sent once — a crash in between, or a lost publish, loses the event;
//   - otherwise: publish, wait for the broker's ack (republishing on
//     timeout), then save the position. A crash after the publish and
//     before the position is saved publishes the row again after the
//     restart: the consumer must be idempotent.
type OutboxRelay struct {
	Service sim.NodeID
	Broker  sim.NodeID
	Timeout sim.Time
}

// Relay states (row 0 of its volatile state table).
const (
	relayIdle int32 = iota
	relayFetching
	relayPublishing
)

const (
	relayPosition sim.TableID = iota // row 0: positionRow
	relayAttempts                    // op → publishes so far (durable, so attempts keep counting across restarts)
	relayState                       // row 0: relayStateRow (volatile)
)

// outboxRelay publishes through the attempt and state tables.
var outboxRelay = relayTables{attempts: relayAttempts, stateTable: relayState}

// Start catches up from the saved position.
func (r *OutboxRelay) Start(ctx *sim.Context) { r.fetch(ctx) }

// Timer republishes an unacknowledged row.
func (r *OutboxRelay) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != roles.TimerRetry {
		return
	}
	if outboxRelay.unacked(ctx, t) {
		r.publish(ctx, t.Op, t.Key, roles.Payload(t.Op))
	}
}

func (r *OutboxRelay) fetch(ctx *sim.Context) {
	pos, _ := ctx.Get(relayPosition, 0, 0)
	ctx.Put(relayState, 0, 0, relayStateRow{Phase: relayFetching}.encode())
	ctx.Send(r.Service, fetch{Position: decodePositionRow(pos).Sequence + 1}.encode(envelope{Kind: MsgOutboxFetch}))
}

func (r *OutboxRelay) savePosition(ctx *sim.Context, seq int64, op sim.OpID) {
	ctx.Put(relayPosition, 0, op, positionRow{Sequence: seq}.encode())
}

func (r *OutboxRelay) publish(ctx *sim.Context, op sim.OpID, seq int64, record int64) {
	outboxRelay.publish(ctx, r.Broker, r.Timeout, ctx.Semantics() != sim.AtMostOnce, op, seq, record)
}

// Receive handles notifications, outbox rows and the broker's acks.
func (r *OutboxRelay) Receive(ctx *sim.Context, m sim.Message) {
	st := outboxRelay.state(ctx, m.Op)
	switch m.Kind {
	case MsgOutboxNotify:
		if st.fetches(m) {
			r.fetch(ctx)
		}
	case MsgOutboxRow:
		pos, _ := ctx.Get(relayPosition, 0, m.Op)
		row, ok := outboxRelay.nextRow(ctx, st, m, decodePositionRow(pos).Sequence)
		if !ok {
			return
		}
		if ctx.Semantics() == sim.AtMostOnce {
			r.savePosition(ctx, row.Position, m.Op)
			if ctx.CrashPoint(PointAfterCommit, &m) {
				return
			}
			r.publish(ctx, m.Op, row.Position, row.Record)
			r.fetch(ctx)
			return
		}
		r.publish(ctx, m.Op, row.Position, row.Record)
	case MsgPublishAck:
		if st.acked(ctx, &m) {
			r.savePosition(ctx, st.Sequence, m.Op)
			r.fetch(ctx)
		}
	}
}

// buildOutboxrelay builds a outbox-relay node from its options, each declared where it is read.
func buildOutboxrelay(a *roles.Args) (sim.Node, []sim.TableSpec) {
	r := &OutboxRelay{
		Service: a.Node("service", "the outbox-service whose outbox it reads"),
		Broker:  a.Node("broker", "where it publishes"),
		Timeout: a.Duration("timeout", "1s", "how long it waits for the broker's ack before republishing"),
	}
	return r, []sim.TableSpec{
		{Name: "position", Durable: true, Traced: true},
		{Name: "attempts", Durable: true},
		{Name: "state"},
	}
}
