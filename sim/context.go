package sim

import "fmt"

// Context is a node's only window on the world. Every method is a no-op
// while the node is crashed, so a handler that keeps going after its crash
// point cannot leak effects.
type Context struct {
	w    *World
	node NodeID
}

// Now returns the virtual time.
func (c *Context) Now() Time { return c.w.now }

// Self returns the node's id.
func (c *Context) Self() NodeID { return c.node }

// Ops returns the number of operations of the workload.
func (c *Context) Ops() int { return c.w.cfg.Ops }

// Semantics returns the semantics the run is judged under.
func (c *Context) Semantics() Semantics { return c.w.cfg.Semantics }

func (c *Context) down() bool { return c.w.nodes[c.node].down }

// countOnly says whether an event of this node is only counted, and
// handed to the checker's part that reads it, rather than built
// (World.quiet): a paused node's events are held, so they are built.
func (c *Context) countOnly() bool { return c.w.quiet && !c.w.nodes[c.node].paused }

// emit records e now, or holds it until the node resumes if it is paused.
func (c *Context) emit(e *Event) {
	if ns := &c.w.nodes[c.node]; ns.paused {
		ns.held = append(ns.held, heldAction{event: *e})
		return
	}
	c.w.emit(e)
}

// Send puts a copy of m on the link to node to. The engine stamps From, To
// and a fresh ID; the network (through the Chooser) decides its fate.
func (c *Context) Send(to NodeID, m Message) {
	// m.Attempt is read here, in another block than m.Op: read together,
	// the compiler would load the two as one word, which stalls on the
	// two narrower stores that wrote them.
	attempt := m.Attempt
	if c.down() {
		return
	}
	w := c.w
	if ns := &w.nodes[c.node]; ns.paused {
		ns.held = append(ns.held, heldAction{send: true, to: to, msg: m})
		return
	}
	w.msgID++
	m.ID = w.msgID
	m.From = c.node
	m.To = to
	if w.quiet {
		w.events++
		w.checker.sent(c.node, m.Kind, m.Op)
	} else {
		e := w.event(EvSend, c.node, to)
		e.Msg = m
		w.emit(e)
	}
	// The network gets a pointer to the world's copy (no allocation),
	// written field by field: m's fields were stored one by one a moment
	// ago (by the role, and ID, From and To just above), and a whole-struct
	// copy reads them back in wide loads the store buffer cannot forward.
	o := &w.out
	o.ID, o.From, o.To = w.msgID, c.node, to
	o.Kind, o.Op = m.Kind, m.Op
	o.Attempt = attempt
	o.Key, o.Payload, o.Value, o.Status = m.Key, m.Payload, m.Value, m.Status
	fate := w.cfg.Network.Transmit(&w.stamp, &w.out, w.now)
	delay, dupDelay := fate.Delay, fate.DupDelay
	if delay < 0 || dupDelay < 0 {
		panic(fmt.Sprintf("sim: network returned a negative delay (%d, %d)", delay, dupDelay))
	}
	if drop := fate.Drop; drop != 0 {
		if w.quiet {
			w.events++
			w.checker.dropped(drop)
			return
		}
		e := w.event(EvDrop, c.node, to)
		e.Reason = drop
		e.Msg = m
		w.emit(e)
		return
	}
	if faults := fate.Faults; faults != 0 {
		kinds := w.kinds
		for _, k := range kinds.linkKinds { // table order: slow before late
			if faults.Has(k) && kinds.choices[k].link == LinkHold {
				e := w.event(kinds.holdEvents[k], c.node, to)
				e.Msg = m
				w.emit(e)
			}
		}
	}
	urgent := false
	if from, dst := &w.cfg.Topology.Nodes[c.node], &w.cfg.Topology.Nodes[to]; from.Store || dst.Store {
		urgent = delay == 0
		if from.Store && w.preempt(from, to, &m) {
			delay += from.PreemptFor
			urgent = false
		}
	}
	it := w.queueAt(w.now+delay, urgent)
	it.kind, it.node, it.msg = itemDeliver, to, m
	if fate.Duplicated() {
		e := w.event(EvDuplicate, c.node, to)
		e.Msg = m
		w.emit(e)
		it := w.queueAt(w.now+dupDelay, false)
		it.kind, it.node, it.msg = itemDeliver, to, m
	}
}

// preempt asks whether the reply m of store node spec to node to is held
// back (for spec.PreemptFor ticks), so that other handlers run before the one waiting for it: the
// interleaving choice (docs/concurrency.md). It is asked on every reply of
// a store, with the store's probability (0 in a profile without
// interleavings: a random run then never hashes it).
func (w *World) preempt(spec *NodeSpec, to NodeID, m *Message) bool {
	var ch Choice // field by field, as in CrashPoint
	ch.Kind, ch.N, ch.P = ChoicePreempt, 2, spec.PreemptProbability
	ch.Node, ch.Peer, ch.Msg, ch.Op, ch.Attempt = m.From, to, m.Kind, m.Op, m.Attempt
	if w.stamp.Ask(&ch) == 0 {
		return false
	}
	e := w.event(EvPreempt, m.From, to)
	e.Msg = *m
	w.emit(e)
	return true
}

// After sets a timer that fires after d ticks, unless the node crashes
// first: timers are volatile. A paused node's timer counts from its resume.
func (c *Context) After(d Time, t Timer) {
	if d < 0 {
		panic(fmt.Sprintf("sim: %s set a timer %d ticks in the past", c.w.cfg.Topology.NodeName(c.node), d))
	}
	if c.down() {
		return
	}
	ns := &c.w.nodes[c.node]
	at := c.w.now + d
	if ns.paused {
		at = ns.resumeAt + d
	}
	it := c.w.queueAt(at, false)
	it.kind, it.node, it.incarnation = itemTimer, c.node, ns.incarnation
	it.msg.Kind, it.msg.Op, it.msg.Attempt, it.msg.Key, it.msg.Status = MsgKind(t.Kind), t.Op, t.Attempt, t.Key, t.Phase
}

// CancelTimers cancels every pending timer of this node of kind for
// operation op, and returns how many it cancelled: a cancelled timer
// never fires, so the trace shows no "timer" event for it (the retry timer
// of an operation that has its answer). Timers a crash already cancelled
// are not counted; a crashed node cancels nothing.
func (c *Context) CancelTimers(kind TimerKind, op OpID) int {
	if c.down() {
		return 0
	}
	return c.w.q.removeTimers(c.node, c.w.nodes[c.node].incarnation, kind, op)
}

func (c *Context) table(id TableID) (*Table, *TableSpec) {
	return &c.w.nodes[c.node].tables[id], &c.w.cfg.Topology.Nodes[c.node].Tables[id]
}

// Get reads key from table id.
func (c *Context) Get(id TableID, key int64, op OpID) (r Record, ok bool) {
	if c.down() {
		return Record{}, false
	}
	t, spec := c.table(id)
	var i int
	i, ok = t.find(key)
	if ok {
		r.set(&t.rows[i]) // field by field, as Table.Put writes it
	}
	if e := c.storeEvent(EvStoreGet, spec, id, key, op); e != nil {
		e.Found = ok
		e.Rec = r
		c.emit(e)
	}
	return r, ok
}

// Put writes r under key into table id. r.At is stamped with the current
// time when it is zero; in an age-free table (TableSpec.AgeFree) it is
// always 0.
func (c *Context) Put(id TableID, key int64, op OpID, r Record) {
	if c.down() {
		return
	}
	t, spec := c.table(id)
	if spec.AgeFree {
		r.At = 0
	} else if r.At == 0 {
		r.At = c.w.now
	}
	t.Put(key, r)
	if e := c.storeEvent(EvStorePut, spec, id, key, op); e != nil {
		e.Rec = r
		c.emit(e)
	}
}

// Delete removes key from table id.
func (c *Context) Delete(id TableID, key int64, op OpID) { c.remove(id, key, op, false) }

// Expire removes key from table id because its time to live is over; the
// trace says so.
func (c *Context) Expire(id TableID, key int64, op OpID) { c.remove(id, key, op, true) }

func (c *Context) remove(id TableID, key int64, op OpID, expired bool) {
	if c.down() {
		return
	}
	t, spec := c.table(id)
	t.Delete(key)
	if e := c.storeEvent(EvStoreDelete, spec, id, key, op); e != nil {
		e.Found = expired
		c.emit(e)
	}
}

// storeEvent is the event of a read, write or delete of key in table id,
// for the caller to fill in and emit, or nil when there is none to emit:
// the table is not traced, or the run only counts events (the checker
// ignores store events: Checker.Ignores).
func (c *Context) storeEvent(kind EventKind, spec *TableSpec, id TableID, key int64, op OpID) *Event {
	if !spec.Traced {
		return nil
	}
	if c.countOnly() {
		c.w.events++
		return nil
	}
	e := c.w.event(kind, c.node, NoNode)
	e.Label = uint16(id)
	e.Msg.Key, e.Msg.Op = key, op
	return e
}

// Rows returns table id for reading in key order. The view cannot write:
// writes go through Put and Delete, so that they are traced and an
// age-free table's rows stay without a time (TableSpec.AgeFree).
func (c *Context) Rows(id TableID) TableView {
	return TableView{&c.w.nodes[c.node].tables[id]}
}

// Effect records one effect of op on sink: a card charge, a committed row,
// an e-mail. value is the effect's content (amount, transaction id).
func (c *Context) Effect(sink SinkID, op OpID, value int64) {
	if c.down() {
		return
	}
	if c.countOnly() {
		c.w.events++
		c.w.checker.effect(sink, op)
		return
	}
	e := c.w.event(EvEffect, c.node, NoNode)
	e.Label = uint16(sink)
	e.Msg.Op = op
	e.Msg.Value = value
	c.emit(e)
}

// Outcome records that a client accepted value, with status, as the final
// result of op. The checker counts distinct (value, status) pairs per op
// (response consistency).
func (c *Context) Outcome(op OpID, value int64, status int32) {
	if c.down() {
		return
	}
	if c.countOnly() {
		c.w.events++
		c.w.checker.outcome(op, value, status)
		return
	}
	e := c.w.event(EvOutcome, c.node, NoNode)
	e.Msg.Op = op
	e.Msg.Value = value
	e.Msg.Status = status
	c.emit(e)
}

// CrashPoint is a place in a handler where the node may crash or pause.
// For a crashable node it asks the Chooser whether to crash (if the crash
// probability is not zero) and, if not, whether to pause (if the pause
// probability is not zero). On a crash — volatile tables emptied, timers
// cancelled, a restart scheduled — it returns true and the handler must
// return at once. On a pause it returns false: the rest of the handler
// runs against the state as it is now, but everything it does is held and
// happens when the node resumes (see pause.go). A paused node offers no
// further choice.
func (c *Context) CrashPoint(p PointID, m *Message) bool {
	if c.down() {
		return true
	}
	w := c.w
	spec := &w.cfg.Topology.Nodes[c.node]
	if !spec.Crashable || w.nodes[c.node].paused {
		return false // no choice offered: a fault here is not part of this fault model
	}
	var ch Choice // field by field: a literal is built aside and copied whole (see network's ask)
	ch.N, ch.Node, ch.Peer, ch.Point = 2, c.node, NoNode, p
	if m != nil {
		ch.Msg, ch.Op, ch.Attempt = m.Kind, m.Op, m.Attempt
	}
	if spec.CrashProbability > 0 {
		ch.Kind, ch.P = ChoiceCrash, spec.CrashProbability
		if w.stamp.Ask(&ch) != 0 {
			w.crash(c.node, p, m)
			return true
		}
	}
	if spec.PauseProbability > 0 {
		ch.Kind, ch.P = ChoicePause, spec.PauseProbability
		if w.stamp.Ask(&ch) != 0 {
			w.pause(c.node, p, m)
		}
	}
	return false
}
