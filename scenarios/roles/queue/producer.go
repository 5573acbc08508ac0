package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Producer publishes one record per operation to the broker. Under
// at-most-once it publishes once; otherwise it republishes whenever Timeout
// passes without the broker's acknowledgement — so a lost ack puts a
// second copy in the log. With Attempts it gives a record up after that
// many publishes, as a real producer's delivery timeout does (Kafka's
// delivery.timeout.ms, an SDK's maximum attempts): its retry horizon is
// then (Attempts-1) × Timeout, which a consumer's dedup retention can
// cover; without it the horizon is unbounded.
type Producer struct {
	Broker   sim.NodeID
	Interval sim.Time
	Timeout  sim.Time
	Attempts int64 // 0: republish until acknowledged
}

const producerOps sim.TableID = 0

// Start schedules the workload.
func (p *Producer) Start(ctx *sim.Context) {
	for op := 1; op <= ctx.Ops(); op++ {
		ctx.After(sim.Time(op-1)*p.Interval, sim.Timer{Kind: roles.TimerStartOp, Op: sim.OpID(op)})
	}
}

func (p *Producer) publish(ctx *sim.Context, op sim.OpID, attempt int32) {
	ctx.Put(producerOps, int64(op), op, opRow{State: roles.OpPending, Attempt: attempt}.encode())
	ctx.Send(p.Broker, publish{Record: roles.Payload(op)}.encode(envelope{Kind: MsgPublish, Op: op, Attempt: attempt}))
	roles.ArmRetry(ctx, p.Timeout, op, attempt)
}

// Timer starts or retries a publish.
func (p *Producer) Timer(ctx *sim.Context, t sim.Timer) {
	switch t.Kind {
	case roles.TimerStartOp:
		p.publish(ctx, t.Op, 1)
	case roles.TimerRetry:
		if roles.RetryDue(ctx, producerOps, t) {
			if p.Attempts > 0 && int64(t.Attempt) >= p.Attempts {
				return // given up: the delivery timeout is over
			}
			p.publish(ctx, t.Op, t.Attempt+1)
		}
	}
}

// Receive marks an operation acknowledged.
func (p *Producer) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPublishAck {
		return
	}
	roles.FinishOp(ctx, producerOps, m.Op)
}

// buildProducer builds a producer node from its options, each declared where it is read.
func buildProducer(a *roles.Args) (sim.Node, []sim.TableSpec) {
	p := &Producer{
		Broker:   a.Node("broker", "the broker"),
		Interval: a.Duration("interval", "100ms", "time between two publishes"),
		Timeout:  a.Duration("timeout", "1s", "how long it waits for the ack before republishing"),
		Attempts: a.Int("attempts", 0, 0, 1000, "the most publishes of one record, then it is given up (a delivery timeout); 0: until acknowledged"),
	}
	return p, []sim.TableSpec{{Name: "ops", AgeFree: true}}
}
