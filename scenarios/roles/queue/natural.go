package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// naturalConsumer is the delivery discipline shared by the consumers whose
// idempotency comes from the form of the operation, not from a dedup store:
//
//   - at-most-once: commit the offset, then apply — a crash in between
//     loses the record;
//   - otherwise: apply, then commit — a crash in between, or a lost commit,
//     brings a redelivery, and the record is applied again. Whether that
//     second application changes anything is the lesson.
type naturalConsumer struct {
	Broker sim.NodeID
	Seen   sim.TableID // offsets seen: at-most-once transport dedup
}

// applier applies one delivered record to a consumer's tables.
type applier interface {
	apply(ctx *sim.Context, m *sim.Message)
}

func (c naturalConsumer) receive(ctx *sim.Context, m sim.Message, a applier) {
	if m.Kind != MsgDeliver {
		return
	}
	offset := decodeDelivery(m).Offset
	if ctx.Semantics() == sim.AtMostOnce {
		if commitFirst(ctx, c.Seen, c.Broker, offset, &m) {
			a.apply(ctx, &m)
		}
		return
	}
	a.apply(ctx, &m)
	if ctx.CrashPoint(PointAfterEffect, &m) {
		return
	}
	ctx.Send(c.Broker, commitOf(offset, &m))
}

// pickByDesign resolves an "auto" option: the naive form under at-most-once
// and at-least-once, the idempotent form under the idempotent semantics.
func pickByDesign(ctx *sim.Context, mode, naive, idem string) string {
	if mode != "auto" {
		return mode
	}
	if roles.Idempotent(ctx.Semantics()) {
		return idem
	}
	return naive
}
