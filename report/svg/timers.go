package svg

import "github.com/oncesim/once/sim"

// withoutIdleTimers leaves out the timers that fire for an operation its
// client already has the outcome of: a retry timer of an answered payment
// does nothing, and drawn it only lengthens the picture. A timer that
// acts — anything else the node does at that instant is drawn anyway —
// and every timer of an unanswered operation stay. The events are copied
// only when one is left out.
func withoutIdleTimers(events []sim.Event) []sim.Event {
	answered := map[sim.OpID]bool{} // looked up only
	var out []sim.Event
	for i := range events {
		e := &events[i]
		if e.Kind == sim.EvOutcome && e.Msg.Op > 0 {
			answered[e.Msg.Op] = true
		}
		idle := e.Kind == sim.EvTimerFire && e.Msg.Op > 0 && answered[e.Msg.Op] && !actsAt(events, i)
		if idle && out == nil {
			out = append(make([]sim.Event, 0, len(events)), events[:i]...)
		}
		if out != nil && !idle {
			out = append(out, *e)
		}
	}
	if out == nil {
		return events
	}
	return out
}

// actsAt reports whether the node of timer event i does anything else at
// the same instant right after it (sends, writes, effects): then the timer
// caused it and stays in the picture.
func actsAt(events []sim.Event, i int) bool {
	e := &events[i]
	for k := i + 1; k < len(events) && events[k].At == e.At; k++ {
		if events[k].Node == e.Node && events[k].Kind != sim.EvTimerFire && events[k].Kind != sim.EvDeliver {
			return true
		}
	}
	return false
}
