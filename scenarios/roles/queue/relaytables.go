package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// relayTables are the attempt and state tables of a role that publishes
// outbox rows to a broker one at a time, republishing a row until the
// broker acknowledges it (OutboxRelay, CDCConnector).
type relayTables struct {
	attempts sim.TableID // op → publishes so far (attemptRow)
	state    sim.TableID // row 0: relayStateRow
}

// publish sends record, row seq of the outbox, to broker as op's next
// attempt and marks the row in flight; with retry it arms the timer that
// publishes the row again after timeout.
func (t relayTables) publish(ctx *sim.Context, broker sim.NodeID, timeout sim.Time, retry bool, op sim.OpID, seq, record int64) {
	rec, _ := ctx.Get(t.attempts, int64(op), op)
	a := decodeAttemptRow(rec)
	a.Attempt++
	ctx.Put(t.attempts, int64(op), op, a.encode())
	ctx.Put(t.state, 0, op, relayStateRow{Phase: relayPublishing, Sequence: seq, Op: op}.encode())
	ctx.Send(broker, publish{Record: record}.encode(envelope{Kind: MsgPublish, Op: op, Attempt: a.Attempt}))
	if retry {
		ctx.After(timeout, sim.Timer{Kind: roles.TimerRetry, Op: op, Attempt: a.Attempt, Key: seq})
	}
}

// unacked reports whether retry timer tm belongs to the publish still in
// flight: its row, not acknowledged since, and its latest attempt.
func (t relayTables) unacked(ctx *sim.Context, tm sim.Timer) bool {
	st, _ := ctx.Get(t.state, 0, tm.Op)
	a, _ := ctx.Get(t.attempts, int64(tm.Op), tm.Op)
	s := decodeRelayStateRow(st)
	return s.Phase == relayPublishing && s.Sequence == tm.Key && decodeAttemptRow(a).Attempt == tm.Attempt
}
