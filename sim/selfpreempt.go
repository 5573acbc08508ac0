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
	ch := Choice{Kind: ChoicePreempt, N: 2, P: p, Node: c.node, Peer: c.node, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}
	if w.stamp.Choose(ch) == 0 {
		return false
	}
	e := w.event(EvPreempt, c.node, c.node)
	e.Msg = *m
	c.emit(e)
	return true
}
