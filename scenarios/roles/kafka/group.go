package kafka

import "github.com/oncesim/once/sim"

// The consumer-group protocol, reduced to what a zombie needs: one input
// partition, one owner, standbys, generations and a session timeout.
//
// The broker is the group coordinator. A processor joins; the first one
// (or any, when nobody owns the partition) becomes the owner in a new
// generation, the others wait as standbys. The owner heartbeats every
// Heartbeat; every heartbeat restarts the session timer. When the timer
// fires with no heartbeat since it was set — the owner crashed, or is
// frozen in a pause — the coordinator removes the owner and rebalances:
// a new generation, the partition assigned to the lowest standby. A
// heartbeat naming an older generation is answered ILLEGAL_GENERATION and
// its sender rejoins (as a standby, since someone else owns the
// partition). A member that has processed everything leaves, handing the
// partition on. An offset commit (plain or transactional) naming an
// older generation is refused with ILLEGAL_GENERATION, and one from a
// member the group has removed with UNKNOWN_MEMBER_ID, as KIP-447 has the
// group coordinator check the member and generation of a TxnOffsetCommit
// (the group metadata the producer sends with
// sendOffsetsToTransaction(offsets, consumer.groupMetadata())).
//
// The protocol decides who works, and — with one transactional id per
// producer instance (KIP-447) — it is what stops a resumed zombie: its
// transactional offset commit names a generation the group has left, the
// commit fails, and the zombie aborts its transaction. With one shared
// transactional id per input partition (the design before KIP-447) the id
// does it instead: the new owner's init-producer-id bumps the epoch and
// aborts the zombie's transaction, and every write the zombie still sends
// carries the old epoch.

// Group tables of the broker (after kbInputLog).
const (
	kbGroupState sim.TableID = kbInputLog + 1 + iota // row 1: a groupStateRow
	kbMembers                                        // member node → {State: memberStandby or memberOwner}
)

const (
	memberStandby int32 = iota + 1
	memberOwner
)

func groupTables() []sim.TableSpec {
	return []sim.TableSpec{
		{Name: "group", Durable: true},
		{Name: "group-members", Durable: true, Traced: true, States: []string{"", "STANDBY", "OWNER"}},
	}
}

func (b *Broker) group(ctx *sim.Context) groupStateRow {
	r, _ := ctx.Get(kbGroupState, 1, 0)
	return decodeGroupStateRow(r)
}

// groupReceive handles the group protocol's messages; it reports whether
// m was one of them.
func (b *Broker) groupReceive(ctx *sim.Context, m sim.Message) bool {
	switch m.Kind {
	case MsgJoinGroup:
		b.join(ctx, m.From, decodeJoinGroup(m).Corr)
	case MsgHeartbeat:
		b.heartbeat(ctx, m.From, decodeHeartbeat(m))
	case MsgLeaveGroup:
		ctx.Delete(kbMembers, int64(m.From), 0)
		if g := b.group(ctx); g.Owner == int64(m.From)+1 {
			b.handOn(ctx, g)
		}
	default:
		return false
	}
	return true
}

func (b *Broker) join(ctx *sim.Context, from sim.NodeID, corr int32) {
	g := b.group(ctx)
	ctx.Put(kbMembers, int64(from), 0, sim.Record{State: memberStandby})
	if g.Owner == 0 || g.Owner == int64(from)+1 {
		b.assign(ctx, g, from, corr) // nobody owns the partition, or its owner rejoins: a new generation
		return
	}
	ctx.Send(from, assignment{Generation: g.Generation, Corr: corr}.encode())
}

// assign starts a new generation with node as the owner.
func (b *Broker) assign(ctx *sim.Context, g groupStateRow, node sim.NodeID, corr int32) {
	g.Generation++
	g.Owner = int64(node) + 1
	g.Beats = 0
	ctx.Put(kbGroupState, 1, 0, g.encode())
	ctx.Put(kbMembers, int64(node), 0, sim.Record{State: memberOwner})
	ctx.Send(node, assignment{Generation: g.Generation, Owner: 1, Corr: corr}.encode())
	ctx.After(b.Session, sim.Timer{Kind: TimerSession, Key: g.Generation})
}

func (b *Broker) heartbeat(ctx *sim.Context, from sim.NodeID, h heartbeat) {
	g := b.group(ctx)
	if err := b.memberError(ctx, from, h.Generation); err != 0 || g.Owner != int64(from)+1 {
		if err == 0 {
			err = kafkaIllegalGeneration
		}
		ctx.Send(from, heartbeat{Generation: g.Generation, Err: err}.encode(MsgHeartbeatErr))
		return
	}
	g.Beats++
	ctx.Put(kbGroupState, 1, 0, g.encode())
	ctx.After(b.Session, sim.Timer{Kind: TimerSession, Key: g.Generation, Attempt: g.Beats})
}

// sessionExpired removes an owner that stopped heartbeating.
func (b *Broker) sessionExpired(ctx *sim.Context, t sim.Timer) {
	g := b.group(ctx)
	if g.Owner == 0 || t.Key != g.Generation || t.Attempt != g.Beats {
		return // a heartbeat came since, or the generation is over
	}
	ctx.Delete(kbMembers, g.Owner-1, 0)
	b.handOn(ctx, g)
}

// handOn gives the partition to the lowest standby, or to nobody.
func (b *Broker) handOn(ctx *sim.Context, g groupStateRow) {
	members := ctx.Rows(kbMembers)
	for i := 0; i < members.Len(); i++ {
		node, r := members.At(i)
		if r.State == memberStandby {
			b.assign(ctx, g, sim.NodeID(node), 0)
			return
		}
	}
	g.Generation++
	g.Owner, g.Beats = 0, 0
	ctx.Put(kbGroupState, 1, 0, g.encode())
}

// memberError is the group coordinator's check of a request that names
// a member and a generation (a heartbeat, an offset commit, a
// transactional offset commit), as Kafka's ClassicGroup.validateMember
// and validateOffsetCommit do it: UNKNOWN_MEMBER_ID when the group has
// removed the member (its session expired), ILLEGAL_GENERATION when the
// generation is not the group's. A transactional commit sent without
// group metadata (gen < 0: sendOffsetsToTransaction with a bare group id)
// is not checked at all — a classic group accepts it, since the old
// TxnOffsetCommit carried no member and no generation. Without a group
// protocol (Session 0) nothing is checked.
func (b *Broker) memberError(ctx *sim.Context, from sim.NodeID, gen int64) int32 {
	if b.Session == 0 || gen < 0 {
		return 0
	}
	if _, ok := ctx.Get(kbMembers, int64(from), 0); !ok {
		return kafkaUnknownMemberID
	}
	if gen != b.group(ctx).Generation {
		return kafkaIllegalGeneration
	}
	return 0
}
