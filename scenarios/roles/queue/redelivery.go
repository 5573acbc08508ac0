package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// nextDelivery counts one more delivery of the record at key of log (a
// table of logRows) and returns its row and the delivery to send.
func nextDelivery(ctx *sim.Context, log sim.TableID, key int64) (logRow, sim.Message) {
	rec, _ := ctx.Get(log, key, 0)
	r := decodeLogRow(rec)
	r.Deliveries++
	ctx.Put(log, key, r.Op, r.encode())
	return r, delivery{Offset: key, Record: roles.Payload(r.Op)}.encode(envelope{Kind: MsgDeliver, Op: r.Op, Attempt: r.Deliveries})
}

// redeliveryTimer is the timer of r's latest delivery, of the record at key.
func redeliveryTimer(kind sim.TimerKind, r logRow, key int64) sim.Timer {
	return sim.Timer{Kind: kind, Op: r.Op, Key: key, Attempt: r.Deliveries}
}

// latestUnacked reports whether redelivery timer t is the one of the
// latest delivery of a record of log that is not acked yet.
func latestUnacked(ctx *sim.Context, log sim.TableID, t sim.Timer) bool {
	rec, ok := ctx.Get(log, t.Key, t.Op)
	r := decodeLogRow(rec)
	return ok && r.State != recordAcked && r.Deliveries == t.Attempt
}
