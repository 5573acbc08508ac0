package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// PIDBroker is a partition leader's log. Every record it appends is an
// effect on log-records. A publish without a producer id is appended
// whatever it is; one with a producer id goes through Kafka's sequence
// check, kept per producer id in a durable table:
//
//   - sequence = last + 1: appended (201), last advances;
//   - sequence ≤ last: a duplicate of a record already in the log —
//     acknowledged (200) and not appended;
//   - sequence > last + 1: out of order, an earlier record is missing —
//     rejected (409); the producer retries.
//
// Under at-most-once a network copy of one publish is dropped by the
// transport, as TCP would.
type PIDBroker struct{}

const (
	pidBrokerLog       sim.TableID = iota // offset → pidLogRow
	pidBrokerProducers                    // producer id → producerRow
	pidBrokerSeen                         // (op, attempt) publishes seen: at-most-once transport dedup
)

// Start does nothing: the broker is driven by publishes.
func (b *PIDBroker) Start(*sim.Context) {}

// Timer is unused.
func (b *PIDBroker) Timer(*sim.Context, sim.Timer) {}

// Receive appends, deduplicates or rejects a publish.
func (b *PIDBroker) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgPublish {
		return
	}
	if ctx.Semantics() == sim.AtMostOnce && transportDup(ctx, pidBrokerSeen, opAttemptKey(m.Op, m.Attempt), m.Op) {
		return
	}
	pub := decodePublish(m)
	if pub.ProducerID != 0 {
		rec, _ := ctx.Get(pidBrokerProducers, pub.ProducerID, m.Op)
		p := decodeProducerRow(rec)
		switch {
		case pub.Sequence <= p.LastSequence:
			b.ack(ctx, m, pub, roles.StatusOK, 0) // a duplicate: already in the log
			return
		case pub.Sequence > p.LastSequence+1:
			b.ack(ctx, m, pub, roles.StatusConflict, 0) // out of order
			return
		}
		offset := b.append(ctx, m.Op, pub)
		ctx.Put(pidBrokerProducers, pub.ProducerID, m.Op, producerRow{LastSequence: pub.Sequence, Offset: offset}.encode())
		b.ack(ctx, m, pub, roles.StatusCreated, offset)
		return
	}
	b.ack(ctx, m, pub, roles.StatusCreated, b.append(ctx, m.Op, pub))
}

func (b *PIDBroker) append(ctx *sim.Context, op sim.OpID, pub publish) int64 {
	offset := int64(ctx.Rows(pidBrokerLog).Len() + 1)
	ctx.Put(pidBrokerLog, offset, op, pidLogRow{Op: op, ProducerID: pub.ProducerID, Sequence: int32(pub.Sequence)}.encode())
	ctx.Effect(SinkLogRecords, op, offset)
	return offset
}

func (b *PIDBroker) ack(ctx *sim.Context, m sim.Message, pub publish, status int32, offset int64) {
	ctx.Send(m.From, publishAck{Offset: offset, Sequence: pub.Sequence, Status: status}.encode(envelope{Kind: MsgPublishAck, Op: m.Op, Attempt: m.Attempt}))
}

func init() {
	roles.Register(&roles.Role{
		Name: "pid-broker",
		Doc:  "a log that appends every publish (an effect on log-records) and deduplicates by producer id and sequence number when a publish carries them",
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &PIDBroker{}, []sim.TableSpec{
				{Name: "log", Durable: true},
				{Name: "producers", Durable: true, Traced: true},
				{Name: "seen", Durable: true},
			}
		},
	})
}
