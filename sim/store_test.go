package sim

import (
	"strings"
	"testing"
)

// A caller handles two requests that arrive at the same instant; each is a
// read of the store, then a write. The store node replies to each.
const (
	kindRequest MsgKind = iota + 1
	kindRead
	kindReadReply
	kindWrite
	kindWriteReply
)

type zeroNet struct{}

func (zeroNet) Transmit(Chooser, *Message, Time) Fate { return Fate{} }

// twoStepCaller sends itself two requests at start, and handles each as a
// read of the store followed by a write.
type twoStepCaller struct{ store NodeID }

func (c *twoStepCaller) Start(ctx *Context) {
	ctx.Send(ctx.Self(), Message{Kind: kindRequest, Op: 1, Attempt: 1})
	ctx.Send(ctx.Self(), Message{Kind: kindRequest, Op: 1, Attempt: 2})
}
func (c *twoStepCaller) Timer(*Context, Timer) {}
func (c *twoStepCaller) Receive(ctx *Context, m Message) {
	switch m.Kind {
	case kindRequest:
		ctx.Send(c.store, Message{Kind: kindRead, Op: m.Op, Attempt: m.Attempt})
	case kindReadReply:
		ctx.Send(c.store, Message{Kind: kindWrite, Op: m.Op, Attempt: m.Attempt})
	}
}

type echoStore struct{}

func (echoStore) Start(*Context)        {}
func (echoStore) Timer(*Context, Timer) {}
func (echoStore) Receive(ctx *Context, m Message) {
	if m.Kind == kindRead {
		ctx.Send(m.From, Message{Kind: kindReadReply, Op: m.Op, Attempt: m.Attempt})
	}
}

func storeConfig() *Config {
	topo := &Topology{
		Nodes:    []NodeSpec{{Name: "caller"}, {Name: "store", Store: true, PreemptFor: 10}},
		Messages: []string{"", "request", "read", "read-reply", "write", "write-reply"},
	}
	return &Config{Topology: topo, Nodes: []Node{&twoStepCaller{store: 1}, echoStore{}}, Network: zeroNet{}, Ops: 1}
}

// storeOrder runs the world with ch and lists the store's deliveries
// ("read#1 write#1 …").
func storeOrder(t *testing.T, ch Chooser) string {
	t.Helper()
	tr := &Trace{}
	w, err := NewWorld(storeConfig(), ch, tr)
	if err != nil {
		t.Fatal(err)
	}
	w.Run()
	var out []string
	for _, e := range tr.Events {
		if e.Kind == EvDeliver && e.Node == 1 {
			name := "read"
			if e.Msg.Kind == kindWrite {
				name = "write"
			}
			out = append(out, name+"#"+itoa(int(e.Msg.Attempt)))
		}
	}
	return strings.Join(out, " ")
}

// With no preemption, a handler's store steps run back to back, before
// the second request queued at the same instant: the zero-delay exchange
// with a store is urgent.
func TestStoreStepsRunToCompletion(t *testing.T) {
	if got, want := storeOrder(t, Defaults{}), "read#1 write#1 read#2 write#2"; got != want {
		t.Fatalf("store order %q, want %q", got, want)
	}
}

// One preemption after the first read lets the second request's read in
// before the first request's write: two reads before either write.
func TestPreemptInterleavesTwoHandlers(t *testing.T) {
	got := storeOrder(t, &Sequence{Answers: []int{1}})
	if want := "read#1 read#2 write#2 write#1"; got != want {
		t.Fatalf("store order %q, want %q", got, want)
	}
}
