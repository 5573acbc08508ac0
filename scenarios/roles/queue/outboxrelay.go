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
	relayPosition sim.TableID = iota // row 0: {Value: last outbox sequence published}
	relayAttempts                    // op → publishes so far (durable, so attempts keep counting across restarts)
	relayState                       // row 0: {State, Value: sequence, Aux: op}: volatile
)

// Start catches up from the saved position.
func (r *OutboxRelay) Start(ctx *sim.Context) { r.fetch(ctx) }

// Timer republishes an unacknowledged row.
func (r *OutboxRelay) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != roles.TimerRetry {
		return
	}
	st, _ := ctx.Get(relayState, 0, t.Op)
	a, _ := ctx.Get(relayAttempts, int64(t.Op), t.Op)
	if st.State == relayPublishing && st.Value == t.Key && a.Value == int64(t.Attempt) {
		r.publish(ctx, t.Op, t.Key, sim.Message{Op: t.Op, Payload: roles.Payload(t.Op)})
	}
}

func (r *OutboxRelay) fetch(ctx *sim.Context) {
	pos, _ := ctx.Get(relayPosition, 0, 0)
	ctx.Put(relayState, 0, 0, sim.Record{State: relayFetching})
	ctx.Send(r.Service, sim.Message{Kind: MsgOutboxFetch, Key: pos.Value + 1})
}

func (r *OutboxRelay) savePosition(ctx *sim.Context, seq int64, op sim.OpID) {
	ctx.Put(relayPosition, 0, op, sim.Record{Value: seq})
}

func (r *OutboxRelay) publish(ctx *sim.Context, op sim.OpID, seq int64, row sim.Message) {
	a, _ := ctx.Get(relayAttempts, int64(op), op)
	a.Value++
	ctx.Put(relayAttempts, int64(op), op, a)
	ctx.Put(relayState, 0, op, sim.Record{State: relayPublishing, Value: seq, Aux: int64(op)})
	ctx.Send(r.Broker, sim.Message{Kind: MsgPublish, Op: op, Attempt: int32(a.Value), Payload: row.Payload})
	if ctx.Semantics() != sim.AtMostOnce {
		ctx.After(r.Timeout, sim.Timer{Kind: roles.TimerRetry, Op: op, Attempt: int32(a.Value), Key: seq})
	}
}

// Receive handles notifications, outbox rows and the broker's acks.
func (r *OutboxRelay) Receive(ctx *sim.Context, m sim.Message) {
	st, _ := ctx.Get(relayState, 0, m.Op)
	switch m.Kind {
	case MsgOutboxNotify:
		// Idle: there is news. Fetching: the fetch is already asking —
		// unless this is a restarted service's nudge (no operation), in
		// which case the fetch may have died with it; asking again is
		// harmless.
		if st.State == relayIdle || (st.State == relayFetching && m.Op == 0) {
			r.fetch(ctx)
		}
	case MsgOutboxRow:
		pos, _ := ctx.Get(relayPosition, 0, m.Op)
		if st.State != relayFetching || m.Key != pos.Value+1 {
			return
		}
		if m.Status != roles.StatusOK {
			ctx.Put(relayState, 0, 0, sim.Record{State: relayIdle})
			return
		}
		if ctx.Semantics() == sim.AtMostOnce {
			r.savePosition(ctx, m.Key, m.Op)
			if ctx.CrashPoint(PointAfterCommit, &m) {
				return
			}
			r.publish(ctx, m.Op, m.Key, m)
			r.fetch(ctx)
			return
		}
		r.publish(ctx, m.Op, m.Key, m)
	case MsgPublishAck:
		if st.State != relayPublishing || st.Aux != int64(m.Op) {
			return
		}
		if ctx.CrashPoint(PointAfterPublish, &m) {
			return
		}
		r.savePosition(ctx, st.Value, m.Op)
		r.fetch(ctx)
	}
}

var (
	outboxRelayService = roles.Node("service", "the outbox-service whose outbox it reads")
	outboxRelayBroker  = roles.Node("broker", "where it publishes")
	outboxRelayTimeout = roles.Duration("timeout", "1s", "how long it waits for the broker's ack before republishing")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "outbox-relay",
		Doc:     "publishes the service's outbox rows in order and keeps its position durable; republishes after a crash between publish and position",
		Options: []roles.Option{outboxRelayService, outboxRelayBroker, outboxRelayTimeout},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			r := &OutboxRelay{Service: outboxRelayService.Get(a), Broker: outboxRelayBroker.Get(a), Timeout: outboxRelayTimeout.Get(a)}
			return r, []sim.TableSpec{
				{Name: "position", Durable: true, Traced: true},
				{Name: "attempts", Durable: true},
				{Name: "state"},
			}
		},
	})
}
