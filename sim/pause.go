package sim

import "encoding/binary"

// A pause is the GC pause (or VM stall, or SIGSTOP) that makes a zombie:
// the node stops for PauseFor ticks and keeps everything — durable and
// volatile tables, timers, its incarnation. The world goes on meanwhile.
//
// The pause starts at a crash point, in the middle of a handler. The rest
// of that handler still runs at once against the node's state (nobody else
// can read or write that state while the node is frozen, so reading it now
// or at the resume is the same), but everything it does that others could
// see — sends, effects, outcomes, the trace of its reads and writes — is
// held and happens, in order, when the node resumes. Deliveries that arrive
// while the node is paused queue, in arrival order, and are handled after
// the resume; timers that come due wait and fire after the resume; a timer
// set by the held rest of the handler counts from the resume.

// heldAction is one thing a paused node's handler did after its pause
// point: a send, or a trace event (store access, effect, outcome).
type heldAction struct {
	send  bool
	to    NodeID
	msg   Message // send: the message, before the engine stamps it
	event Event   // otherwise: the event, re-stamped at the resume
}

// pause freezes node at point (handling m, if any) and schedules its resume.
func (w *World) pause(node NodeID, point PointID, m *Message) {
	ns := &w.nodes[node]
	spec := &w.cfg.Topology.Nodes[node]
	d := max(spec.PauseFor, 1)
	e := w.event(EvPause, node, NoNode)
	e.Label = uint16(point)
	e.Msg.Value = int64(d)
	if m != nil {
		e.Msg.Op, e.Msg.Attempt = m.Op, m.Attempt
	}
	w.emit(e)
	ns.paused = true
	ns.resumeAt = w.now + d
	w.scheduleNode(ns.resumeAt, itemResume, node)
}

// postpone queues a delivery or timer that came while its node is paused:
// it runs right after the resume, after everything queued before it (the
// resume item was scheduled first, and the queue keeps insertion order
// among equal times).
func (w *World) postpone(it *item) {
	p := w.queueAt(w.nodes[it.node].resumeAt, false)
	p.kind, p.node, p.incarnation, p.msg = it.kind, it.node, it.incarnation, it.msg
}

// resume wakes node: the trace says so, then what its handler did after
// the pause point happens now, in order.
func (w *World) resume(node NodeID) {
	ns := &w.nodes[node]
	ns.paused = false
	w.emit(w.event(EvResume, node, NoNode))
	held := ns.held
	ns.held = nil
	w.ctx.node = node
	for i := range held {
		h := &held[i]
		if h.send {
			w.ctx.Send(h.to, h.msg)
			continue
		}
		w.scratch = h.event
		w.scratch.At = w.now
		w.emit(&w.scratch)
	}
}

// appendPause appends the canonical encoding of the node's pause: whether
// it is paused, how long until it resumes, and what it holds (message
// ids, sequence numbers and times left out, as in AppendState). tables
// are the node's table declarations: a held store event's row is encoded
// with its age, except a row of an age-free table, which has none (its At
// is 0, like that of every event that carries no row). Kinds and labels
// are encoded by the keys of their names (k), as the digest folds them, so
// the encoding does not depend on registration order.
func (ns *nodeState) appendPause(b []byte, now Time, tables []TableSpec, k *nameKeys) []byte {
	b = append(b, boolByte(ns.paused))
	if !ns.paused {
		return b
	}
	b = binary.AppendVarint(b, int64(ns.resumeAt-now))
	b = binary.AppendUvarint(b, uint64(len(ns.held)))
	for i := range ns.held {
		h := &ns.held[i]
		m := &h.msg
		if h.send {
			b = append(b, 0xe0, byte(h.to))
			b = binary.LittleEndian.AppendUint64(b, keyAt(k.messages, int(m.Kind)))
		} else {
			e := &h.event
			m = &e.Msg
			b = append(b, 0xe1, byte(e.Kind), boolByte(e.Found))
			b = binary.LittleEndian.AppendUint64(b, k.label(e))
			b = binary.LittleEndian.AppendUint64(b, k.msgKind(e))
			r := &e.Rec
			b = binary.AppendVarint(b, int64(r.State))
			b = binary.AppendVarint(b, int64(r.Status))
			b = binary.AppendVarint(b, r.Value)
			b = binary.AppendVarint(b, r.Aux)
			b = binary.AppendVarint(b, int64(rowAge(e, now, tables)))
		}
		b = appendMessageFields(b, m)
	}
	return b
}

// rowAge is the age of the row a held event carries, as the fingerprint
// sees it: now − At for a row of a table that keeps times, and At itself
// (0) for an event that carries no row (a Get that found nothing
// included) or a row of an age-free table —
// time is never encoded absolutely.
func rowAge(e *Event, now Time, tables []TableSpec) Time {
	row := e.Kind == EvStorePut || e.Kind == EvStoreGet && e.Found
	if row && int(e.Label) < len(tables) && !tables[e.Label].AgeFree {
		return now - e.Rec.At
	}
	return e.Rec.At
}
