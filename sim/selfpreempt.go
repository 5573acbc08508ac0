package sim

// Preempt asks the interleaving choice (ChoicePreempt) for a store that
// lives inside this node rather than in a node of its own: the lab's
// harness store, which answers a played process's request at once. m
// names the reply (its kind, op and attempt key the choice, as a store
// node's reply does); p is the choice's probability in a random run.
// On true the caller holds the reply back — its handler is descheduled
// and others run first — and the trace shows a PREEMPT line.
func (c *Context) Preempt(m *Message, p float64) bool {
	if c.down() {
		return false
	}
	w := c.w
	var ch Choice // field by field, as in CrashPoint
	ch.Kind, ch.N, ch.P = ChoicePreempt, 2, p
	ch.Node, ch.Peer, ch.Msg, ch.Op, ch.Attempt = c.node, c.node, m.Kind, m.Op, m.Attempt
	if w.stamp.Ask(&ch) == 0 {
		return false
	}
	e := w.event(EvPreempt, c.node, c.node)
	e.Msg = *m
	c.emit(e)
	return true
}
