package kafka

import "github.com/oncesim/once/sim"

// The processor's side of the consumer-group protocol (group.go), used
// when its Heartbeat is set: it joins before it works, heartbeats while it
// owns the partition, waits as a standby otherwise, and leaves when done.
// A fenced write means someone else owns the partition now: it rejoins
// instead of re-registering its transactional id (re-registering would
// fence the new owner in turn). A heartbeat-error is learnt by the
// heartbeat thread, not by the loop: like a Kafka consumer, whose
// rebalance callbacks run inside poll(), the loop finds out at its next
// poll (begin) and until then goes on with the transaction it is in —
// sending its produces, its offsets (with the group metadata it was given
// at the assignment) and its commit.

// kpMember is the processor's volatile row 4: {Value: the generation it
// owns the partition in, 0 = none; Status: 1 once the heartbeat thread
// learnt that the group removed it}.
const kpMember int64 = 4

func (p *Processor) grouped() bool { return p.Heartbeat > 0 }

func (p *Processor) generation(ctx *sim.Context) int64 {
	r, _ := ctx.Get(kpState, kpMember, 0)
	return r.Value
}

// lost reports whether the processor learnt that it no longer owns the
// partition (and has not rejoined yet).
func (p *Processor) lost(ctx *sim.Context) bool {
	r, _ := ctx.Get(kpState, kpMember, 0)
	return r.Status == 1
}

// setLost records that the partition is lost; the generation stays what
// the assignment said (it is the group metadata the loop still sends).
func (p *Processor) setLost(ctx *sim.Context) {
	r, _ := ctx.Get(kpState, kpMember, 0)
	r.Status = 1
	ctx.Put(kpState, kpMember, 0, r)
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
		if p.generation(ctx) == 0 || r.Phase == kpDone || p.lost(ctx) {
			return true
		}
		p.setLost(ctx) // the group moved on without it
		if !p.midTransaction(r.Phase) {
			p.rejoin(ctx)
		}
	default:
		return false
	}
	return true
}

// beat sends the owner's heartbeat and schedules the next one.
func (p *Processor) beat(ctx *sim.Context, t sim.Timer) {
	gen := p.generation(ctx)
	if gen == 0 || t.Key != gen || p.run(ctx).Phase == kpDone || p.lost(ctx) {
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

// midTransaction reports whether the loop is inside a transaction (or a
// batch) it will only leave at its next poll: from the fetch of its first
// record to the answer to its commit or abort.
func (p *Processor) midTransaction(phase int32) bool {
	switch phase {
	case kpFetch, kpProduce, kpExternal, kpCommitOffsets, kpEndTxn, kpAbort:
		return true
	}
	return false
}
