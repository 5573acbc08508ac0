package lab

import "github.com/oncesim/once/sim"

// timerID names a lab timer: the replica that set it and its timer_id.
type timerID struct {
	replica int
	id      int64
}

// timerRef is what the engine knows a pending lab timer by.
type timerRef struct {
	kind sim.TimerKind
	op   sim.OpID
}

// cancel cancels the replica in hand's timer id. The engine cancels a
// node's timers by kind and operation (sim.Context.CancelTimers): when
// no other pending timer of the node shares them, the timer is removed
// from the engine's queue — it never fires and the trace never shows it.
// Otherwise it is only marked: it fires in the trace, unheard, and is
// never handed to the process.
func (n *Node) cancel(ctx *sim.Context, id int64) {
	key := timerID{n.cur.idx, id}
	ref, ok := n.pending[key]
	if !ok {
		n.cur.cancelled[id] = true // fired already, or never set: never hand it over
		return
	}
	for other, r := range n.pending {
		if other != key && r == ref {
			n.cur.cancelled[id] = true
			return
		}
	}
	ctx.CancelTimers(ref.kind, ref.op)
	delete(n.pending, key)
}
