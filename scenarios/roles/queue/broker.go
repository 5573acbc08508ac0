package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Log record states.
const (
	recordUnacked int32 = iota
	recordAcked
)

// Broker keeps a durable log with offsets and pushes each record to the
// consumer. Under at-most-once a record is delivered once and forgotten;
// otherwise it is redelivered every Visibility until the consumer commits
// its offset.
type Broker struct {
	Consumer   sim.NodeID
	Visibility sim.Time
}

const (
	brokerLog  sim.TableID = iota // offset → {Value: op, State, Aux: deliveries}
	brokerSeen                    // (op, attempt) publishes seen: at-most-once transport dedup
)

// Start does nothing: the broker is driven by publishes.
func (b *Broker) Start(*sim.Context) {}

// Receive appends a published record, or marks a committed one.
func (b *Broker) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPublish:
		if ctx.Semantics() == sim.AtMostOnce {
			// A network copy of one publish is dropped by the transport.
			seen := int64(m.Op)*1000 + int64(m.Attempt)
			if _, dup := ctx.Get(brokerSeen, seen, m.Op); dup {
				return
			}
			ctx.Put(brokerSeen, seen, m.Op, sim.Record{})
		}
		offset := int64(ctx.Rows(brokerLog).Len() + 1)
		ctx.Put(brokerLog, offset, m.Op, sim.Record{Value: int64(m.Op), State: recordUnacked})
		ctx.Send(m.From, sim.Message{Kind: MsgPublishAck, Op: m.Op, Attempt: m.Attempt, Key: offset})
		b.deliver(ctx, offset)
	case MsgCommit:
		r, ok := ctx.Get(brokerLog, m.Key, m.Op)
		if ok && r.State != recordAcked {
			r.State = recordAcked
			ctx.Put(brokerLog, m.Key, m.Op, r)
		}
	}
}

func (b *Broker) deliver(ctx *sim.Context, offset int64) {
	r, _ := ctx.Get(brokerLog, offset, 0)
	r.Aux++
	ctx.Put(brokerLog, offset, sim.OpID(r.Value), r)
	op := sim.OpID(r.Value)
	ctx.Send(b.Consumer, sim.Message{Kind: MsgDeliver, Op: op, Attempt: int32(r.Aux), Key: offset, Payload: roles.Payload(op)})
	if ctx.Semantics() != sim.AtMostOnce {
		ctx.After(b.Visibility, sim.Timer{Kind: roles.TimerRedeliver, Op: op, Key: offset, Attempt: int32(r.Aux)})
	}
}

// Timer redelivers a record whose offset was not committed in time.
func (b *Broker) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != roles.TimerRedeliver {
		return
	}
	if r, ok := ctx.Get(brokerLog, t.Key, t.Op); ok && r.State != recordAcked {
		b.deliver(ctx, t.Key)
	}
}

var (
	brokerConsumer   = roles.Node("consumer", "where records are delivered")
	brokerVisibility = roles.Duration("visibility", "1s", "how long it waits for a commit before redelivering")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "broker",
		Doc:     "a durable log with offsets; redelivers uncommitted records after a visibility timeout",
		Options: []roles.Option{brokerConsumer, brokerVisibility},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			b := &Broker{Consumer: brokerConsumer.Get(a), Visibility: brokerVisibility.Get(a)}
			return b, []sim.TableSpec{{Name: "log", Durable: true}, {Name: "seen", Durable: true}}
		},
	})
}
