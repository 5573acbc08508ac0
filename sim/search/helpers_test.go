package search

import "github.com/oncesim/once/sim"

// The small worlds the search's tests explore (copies of the engine
// tests' fnNode, fixedNet and store world, which live in package sim).

// fnNode is a Node whose handlers are plain functions.
type fnNode struct {
	start   func(ctx *sim.Context)
	receive func(ctx *sim.Context, m sim.Message)
}

func (n *fnNode) Start(ctx *sim.Context) {
	if n.start != nil {
		n.start(ctx)
	}
}

func (n *fnNode) Receive(ctx *sim.Context, m sim.Message) {
	if n.receive != nil {
		n.receive(ctx, m)
	}
}

func (n *fnNode) Timer(*sim.Context, sim.Timer) {}

// fixedNet is a Network with a fixed delay on every link; it asks for a
// loss when lossProbability > 0.
type fixedNet struct {
	delay           sim.Time
	lossProbability float64
}

func (n *fixedNet) Transmit(ch sim.Chooser, m *sim.Message, now sim.Time) sim.Fate {
	if n.lossProbability > 0 {
		c := sim.Choice{Kind: sim.ChoiceLoss, N: 2, P: n.lossProbability, Node: m.From, Peer: m.To, Msg: m.Kind, Op: m.Op, Attempt: m.Attempt}
		if ch.Choose(c) == 1 {
			return sim.Fate{Drop: sim.DropLoss}
		}
	}
	return sim.Fate{Delay: n.delay}
}

// A caller handles two requests that arrive at the same instant; each is a
// read of the store, then a write. The store node replies to each.
const (
	kindRequest sim.MsgKind = iota + 1
	kindRead
	kindReadReply
	kindWrite
)

type zeroNet struct{}

func (zeroNet) Transmit(sim.Chooser, *sim.Message, sim.Time) sim.Fate { return sim.Fate{} }

// twoStepCaller sends itself two requests at start, and handles each as a
// read of the store followed by a write.
type twoStepCaller struct{ store sim.NodeID }

func (c *twoStepCaller) Start(ctx *sim.Context) {
	ctx.Send(ctx.Self(), sim.Message{Kind: kindRequest, Op: 1, Attempt: 1})
	ctx.Send(ctx.Self(), sim.Message{Kind: kindRequest, Op: 1, Attempt: 2})
}
func (c *twoStepCaller) Timer(*sim.Context, sim.Timer) {}
func (c *twoStepCaller) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case kindRequest:
		ctx.Send(c.store, sim.Message{Kind: kindRead, Op: m.Op, Attempt: m.Attempt})
	case kindReadReply:
		ctx.Send(c.store, sim.Message{Kind: kindWrite, Op: m.Op, Attempt: m.Attempt})
	}
}

type echoStore struct{}

func (echoStore) Start(*sim.Context)            {}
func (echoStore) Timer(*sim.Context, sim.Timer) {}
func (echoStore) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind == kindRead {
		ctx.Send(m.From, sim.Message{Kind: kindReadReply, Op: m.Op, Attempt: m.Attempt})
	}
}

// storeConfig is the caller and the store, the store preemptible.
func storeConfig() *sim.Config {
	topo := &sim.Topology{
		Nodes:    []sim.NodeSpec{{Name: "caller"}, {Name: "store", Store: true, PreemptFor: 10}},
		Messages: []string{"", "request", "read", "read-reply", "write", "write-reply"},
	}
	return &sim.Config{Topology: topo, Nodes: []sim.Node{&twoStepCaller{store: 1}, echoStore{}}, Network: zeroNet{}, Ops: 1}
}
