package kafka

import "github.com/oncesim/once/sim"

// The processor's side of the consumer-group protocol (group.go), used
// when its Heartbeat is set: it joins before it works, heartbeats while it
// owns the partition, waits as a standby otherwise, and leaves when done.
// A fenced write or a heartbeat-error means someone else owns the
// partition now: it rejoins instead of re-registering its transactional
// id (re-registering would fence the new owner in turn).

// kpMember is the processor's volatile row 4: {Value: the generation it
// owns the partition in, 0 = none}.
const kpMember int64 = 4

func (p *Processor) grouped() bool { return p.Heartbeat > 0 }

func (p *Processor) generation(ctx *sim.Context) int64 {
	r, _ := ctx.Get(kpState, kpMember, 0)
	return r.Value
}

func (p *Processor) setGeneration(ctx *sim.Context, gen int64) {
	ctx.Put(kpState, kpMember, 0, sim.Record{Value: gen})
}

// rejoin gives up the partition and asks the group again.
func (p *Processor) rejoin(ctx *sim.Context) {
	p.setGeneration(ctx, 0)
	p.request(ctx, kpJoin)
}

// memberReceive handles the group's answers; it reports whether m was one
// of them.
func (p *Processor) memberReceive(ctx *sim.Context, m sim.Message) bool {
	r := p.run(ctx)
	switch m.Kind {
	case MsgAssignment:
		a := decodeAssignment(m)
		if (a.Corr != 0 && int64(a.Corr) != r.Corr) || (r.Phase != kpJoin && r.Phase != kpStandby) {
			return true // the answer to a join it gave up on, or it already works
		}
		if a.Owner == 0 {
			p.wait(ctx, kpStandby)
			return true
		}
		p.setGeneration(ctx, a.Generation)
		ctx.After(p.Heartbeat, sim.Timer{Kind: TimerHeartbeat, Key: a.Generation})
		p.work(ctx)
	case MsgHeartbeatErr:
		if p.generation(ctx) != 0 && r.Phase != kpDone {
			p.rejoin(ctx) // the group moved on without it
		}
	default:
		return false
	}
	return true
}

// beat sends the owner's heartbeat and schedules the next one.
func (p *Processor) beat(ctx *sim.Context, t sim.Timer) {
	gen := p.generation(ctx)
	if gen == 0 || t.Key != gen || p.run(ctx).Phase == kpDone {
		return
	}
	ctx.Send(p.Broker, heartbeat{Generation: gen}.encode(MsgHeartbeat))
	ctx.After(p.Heartbeat, sim.Timer{Kind: TimerHeartbeat, Key: gen})
}

// leave hands the partition on once everything is processed.
func (p *Processor) leave(ctx *sim.Context) {
	p.setGeneration(ctx, 0)
	ctx.Send(p.Broker, sim.Message{Kind: MsgLeaveGroup})
}
