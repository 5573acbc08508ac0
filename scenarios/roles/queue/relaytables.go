package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// relayTables are the attempt and state tables of a role that publishes
// outbox rows to a broker one at a time, republishing a row until the
// broker acknowledges it (OutboxRelay, CDCConnector).
type relayTables struct {
	attempts   sim.TableID // op → publishes so far (attemptRow)
	stateTable sim.TableID // row 0: relayStateRow
}

// publish sends record, row seq of the outbox, to broker as op's next
// attempt and marks the row in flight; with retry it arms the timer that
// publishes the row again after timeout.
func (t relayTables) publish(ctx *sim.Context, broker sim.NodeID, timeout sim.Time, retry bool, op sim.OpID, seq, record int64) {
	rec, _ := ctx.Get(t.attempts, int64(op), op)
	a := decodeAttemptRow(rec)
	a.Attempt++
	ctx.Put(t.attempts, int64(op), op, a.encode())
	ctx.Put(t.stateTable, 0, op, relayStateRow{Phase: relayPublishing, Sequence: seq, Op: op}.encode())
	ctx.Send(broker, publish{Record: record}.encode(envelope{Kind: MsgPublish, Op: op, Attempt: a.Attempt}))
	if retry {
		ctx.After(timeout, sim.Timer{Kind: roles.TimerRetry, Op: op, Attempt: a.Attempt, Key: seq})
	}
}

// unacked reports whether retry timer tm belongs to the publish still in
// flight: its row, not acknowledged since, and its latest attempt.
func (t relayTables) unacked(ctx *sim.Context, tm sim.Timer) bool {
	st, _ := ctx.Get(t.stateTable, 0, tm.Op)
	a, _ := ctx.Get(t.attempts, int64(tm.Op), tm.Op)
	s := decodeRelayStateRow(st)
	return s.Phase == relayPublishing && s.Sequence == tm.Key && decodeAttemptRow(a).Attempt == tm.Attempt
}

// state is the relay's state row, read for op.
func (t relayTables) state(ctx *sim.Context, op sim.OpID) relayStateRow {
	rec, _ := ctx.Get(t.stateTable, 0, op)
	return decodeRelayStateRow(rec)
}

// fetches reports whether notification m asks the relay in state st to
// fetch. Idle: there is news. Fetching: the fetch is already asking —
// unless this is a restarted service's nudge (no operation), in which
// case the fetch may have died with it; asking again is harmless.
func (st relayStateRow) fetches(m sim.Message) bool {
	return st.Phase == relayIdle || (st.Phase == relayFetching && m.Op == 0)
}

// nextRow decodes outbox row m and reports whether it is the row to
// publish: the one after position, fetched while fetching. A fetch past
// the end of the outbox leaves the relay idle.
func (t relayTables) nextRow(ctx *sim.Context, st relayStateRow, m sim.Message, position int64) (fetched, bool) {
	row := decodeFetched(m)
	if st.Phase != relayFetching || row.Position != position+1 {
		return row, false
	}
	if row.Status != roles.StatusOK {
		ctx.Put(t.stateTable, 0, 0, relayStateRow{Phase: relayIdle}.encode())
		return row, false
	}
	return row, true
}

// acked reports whether the broker's ack m answers the publish in flight
// and the relay survived crash point after-publish (the row published and
// acknowledged, the position not yet saved).
func (st relayStateRow) acked(ctx *sim.Context, m *sim.Message) bool {
	return st.Phase == relayPublishing && st.Op == m.Op && !ctx.CrashPoint(PointAfterPublish, m)
}
