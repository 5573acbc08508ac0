package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// KafkaBroker is the leader of every partition of the model: the input
// topic (filled with one record per operation when the broker first
// boots), the output topic, and the consumer group's offsets (it is also
// the group coordinator).
//
// Appends follow the idempotent producer: a record carries (producer id,
// epoch, sequence); a sequence already appended is answered as a duplicate,
// and — unless Fencing is off — an epoch older than the newest one this
// partition has seen (from a write or a control record) is rejected with
// INVALID_PRODUCER_EPOCH. That check is what fences a zombie.
//
// Transactional records are appended OPEN. The coordinator's write-markers
// appends a COMMIT or ABORT control record, settles every OPEN record of
// that producer, and makes the transaction's pending consumer offsets
// committed (or drops them). A read_committed fetch never goes past the
// first OPEN record (the last stable offset) and skips ABORTED records and
// control records; a read_uncommitted fetch returns every data record.
// A fetch with nothing to return is parked until something becomes visible.
type KafkaBroker struct {
	Fencing bool
}

const (
	kbLog        sim.TableID = iota // log key → record
	kbLogEnd                        // topic → next offset
	kbProducers                     // pid → {Status: epoch, Aux: last sequence, Value: last log key}
	kbGroup                         // group → committed next position
	kbPending                       // pid → {State: pending/settled, Value: pending next position, Status: epoch}
	kbDeliveries                    // input offset → times served
	kbParked                        // consumer node → parked fetch {Value: position, Aux: topic, Status: isolation}
)

func kafkaBrokerTables() []sim.TableSpec {
	return []sim.TableSpec{
		{Name: logTableName, Durable: true, Traced: true, States: logStates},
		{Name: "log-end", Durable: true},
		{Name: "producers", Durable: true},
		{Name: "group-offsets", Durable: true, Traced: true, States: []string{"", "COMMITTED"}},
		{Name: "pending-offsets", Durable: true, Traced: true, States: []string{"", "PENDING", "COMMITTED", "DISCARDED"}},
		{Name: "deliveries", Durable: true},
		{Name: "parked-fetches"},
	}
}

const kafkaGroup = 1

// States of a transaction's pending offsets.
const (
	offsetsPending int32 = iota + 1
	offsetsCommitted
	offsetsDiscarded
)

// pendingOffsets reports whether an open transaction holds offsets.
func pendingOffsets(ctx *sim.Context) bool {
	rows := ctx.Rows(kbPending)
	for i := 0; i < rows.Len(); i++ {
		if _, r := rows.At(i); r.State == offsetsPending {
			return true
		}
	}
	return false
}

// Start fills the input topic on the first boot.
func (b *KafkaBroker) Start(ctx *sim.Context) {
	if _, ok := ctx.Get(kbLogEnd, topicInput, 0); ok {
		return
	}
	for op := 1; op <= ctx.Ops(); op++ {
		b.append(ctx, topicInput, sim.OpID(op), sim.Record{State: logPlain, Value: int64(op)})
	}
}

// Timer is unused.
func (b *KafkaBroker) Timer(*sim.Context, sim.Timer) {}

func (b *KafkaBroker) append(ctx *sim.Context, topic int64, op sim.OpID, r sim.Record) int64 {
	end, ok := ctx.Get(kbLogEnd, topic, op)
	if !ok {
		end.Value = 1
	}
	key := logKey(topic, end.Value)
	ctx.Put(kbLog, key, op, r)
	end.Value++
	ctx.Put(kbLogEnd, topic, op, end)
	return key
}

// visible returns the first record at or after position that a fetch with
// the given isolation level may return.
func visible(ctx *sim.Context, topic, position, isolation int64) (int64, sim.Record, bool) {
	log := ctx.Rows(kbLog)
	from, to := logKey(topic, position), logKey(topic+1, 0)
	for i := 0; i < log.Len(); i++ {
		key, r := log.At(i)
		if key < from || key >= to {
			continue
		}
		switch r.State {
		case logPlain, logCommitted:
			return key, r, true
		case logOpen:
			if isolation == readCommitted {
				return 0, r, false // the last stable offset: nothing beyond it yet
			}
			return key, r, true
		case logAborted:
			if isolation == readUncommitted {
				return key, r, true
			}
		}
	}
	return 0, sim.Record{}, false
}

// serve answers a fetch, or reports that it must wait.
func (b *KafkaBroker) serve(ctx *sim.Context, to sim.NodeID, topic, position, isolation int64) bool {
	key, r, ok := visible(ctx, topic, position, isolation)
	if !ok {
		return false
	}
	op := sim.OpID(r.Value)
	attempt := int32(1)
	if topic == topicInput {
		d, _ := ctx.Get(kbDeliveries, key, op)
		d.Value++
		ctx.Put(kbDeliveries, key, op, d)
		attempt = int32(d.Value)
	}
	ctx.Send(to, sim.Message{Kind: MsgKafkaRecord, Op: op, Attempt: attempt, Key: key - topic*topicSpan, Payload: topic, Value: key})
	return true
}

// wake answers the parked fetches that can now be served.
func (b *KafkaBroker) wake(ctx *sim.Context) {
	parked := ctx.Rows(kbParked)
	var ready []int64
	for i := 0; i < parked.Len(); i++ {
		node, f := parked.At(i)
		if _, _, ok := visible(ctx, f.Aux, f.Value, int64(f.Status)); ok {
			ready = append(ready, node)
		}
	}
	for _, node := range ready {
		f, _ := ctx.Get(kbParked, node, 0)
		ctx.Delete(kbParked, node, 0)
		b.serve(ctx, sim.NodeID(node), f.Aux, f.Value, int64(f.Status))
	}
}

// Receive handles fetches, produces, offsets and control-record requests.
func (b *KafkaBroker) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgKafkaFetch:
		if !b.serve(ctx, m.From, m.Payload, m.Key, m.Value) {
			ctx.Put(kbParked, int64(m.From), 0, sim.Record{Value: m.Key, Aux: m.Payload, Status: int32(m.Value)})
		}
	case MsgKafkaProduce:
		b.produce(ctx, m)
	case MsgKafkaTxnOffsets:
		status := int32(0)
		if p, ok := ctx.Get(kbProducers, m.Key, 0); ok && b.Fencing && m.Value < int64(p.Status) {
			status = kafkaInvalidProducerEpoch
		} else {
			ctx.Put(kbPending, m.Key, 0, sim.Record{State: offsetsPending, Value: m.Payload, Status: int32(m.Value)})
		}
		ctx.Send(m.From, sim.Message{Kind: MsgKafkaOffsetAck, Key: m.Key, Value: m.Value, Payload: m.Payload, Status: status, Attempt: m.Attempt})
	case MsgKafkaOffsetCommit:
		ctx.Put(kbGroup, kafkaGroup, 0, sim.Record{State: 1, Value: m.Payload})
		ctx.Send(m.From, sim.Message{Kind: MsgKafkaOffsetAck, Payload: m.Payload, Attempt: m.Attempt})
	case MsgKafkaOffsetFetch:
		if pendingOffsets(ctx) {
			// KIP-447: offsets of a transaction still open are not stable yet.
			ctx.Send(m.From, sim.Message{Kind: MsgKafkaOffsets, Status: kafkaUnstableOffsetCommit, Attempt: m.Attempt})
			return
		}
		g, _ := ctx.Get(kbGroup, kafkaGroup, 0)
		ctx.Send(m.From, sim.Message{Kind: MsgKafkaOffsets, Payload: g.Value, Attempt: m.Attempt})
	case MsgKafkaMarkers:
		b.markers(ctx, m)
	}
}

func (b *KafkaBroker) produce(ctx *sim.Context, m sim.Message) {
	pid, epoch, seq := m.Key, m.Value, m.Payload
	ack := sim.Message{Kind: MsgKafkaProduceAck, Op: m.Op, Attempt: m.Attempt, Value: epoch, Payload: seq}
	if pid == 0 {
		// A plain producer: every copy is a new record.
		ack.Key = b.append(ctx, topicOutput, m.Op, sim.Record{State: logPlain, Value: int64(m.Op)})
		ctx.Send(m.From, ack)
		b.wake(ctx)
		return
	}
	p, known := ctx.Get(kbProducers, pid, m.Op)
	switch {
	case known && b.Fencing && epoch < int64(p.Status):
		ack.Status = kafkaInvalidProducerEpoch // a zombie: fenced
		ctx.Send(m.From, ack)
		return
	case known && epoch == int64(p.Status) && seq <= p.Aux:
		ack.Status = kafkaDuplicateSequence // a retry or a network copy: already appended
		if seq == p.Aux {
			ack.Key = p.Value
		}
		ctx.Send(m.From, ack)
		return
	case known && epoch == int64(p.Status) && seq != p.Aux+1:
		ack.Status = kafkaOutOfOrderSequence
		ctx.Send(m.From, ack)
		return
	}
	key := b.append(ctx, topicOutput, m.Op, sim.Record{State: logOpen, Status: int32(epoch), Value: int64(m.Op), Aux: producerAux(pid, seq)})
	ctx.Put(kbProducers, pid, m.Op, sim.Record{Status: int32(epoch), Aux: seq, Value: key})
	ack.Key = key
	ctx.Send(m.From, ack)
	b.wake(ctx)
}

// markers settles a transaction: control record, record states, offsets.
func (b *KafkaBroker) markers(ctx *sim.Context, m sim.Message) {
	pid, epoch, commit := m.Key, m.Value, m.Payload == txnCommit
	state, marker := logAborted, logAbortMarker
	if commit {
		state, marker = logCommitted, logCommitMarker
	}
	log := ctx.Rows(kbLog)
	for i := 0; i < log.Len(); i++ {
		key, r := log.At(i)
		if r.State == logOpen && auxPID(r.Aux) == pid {
			r.State = state
			r.At = 0
			ctx.Put(kbLog, key, sim.OpID(r.Value), r) // replaces in place: the iteration is undisturbed
		}
	}
	b.append(ctx, topicOutput, 0, sim.Record{State: marker, Status: int32(epoch), Aux: producerAux(pid, 0)})
	if p, ok := ctx.Get(kbPending, pid, 0); ok && p.State == offsetsPending {
		p.State, p.At = offsetsDiscarded, 0
		if commit {
			ctx.Put(kbGroup, kafkaGroup, 0, sim.Record{State: 1, Value: p.Value})
			p.State = offsetsCommitted
		}
		ctx.Put(kbPending, pid, 0, p)
	}
	p, _ := ctx.Get(kbProducers, pid, 0)
	if epoch > int64(p.Status) {
		ctx.Put(kbProducers, pid, 0, sim.Record{Status: int32(epoch)}) // a new epoch: sequences start again
	}
	ctx.Send(m.From, sim.Message{Kind: MsgKafkaMarkersDone, Key: pid, Value: epoch, Payload: m.Payload})
	b.wake(ctx)
}

var (
	kafkaBrokerFencing = roles.Enum("fencing", "epoch", []string{"epoch", "none"}, "reject writes of an epoch older than the partition has seen, or accept them (no zombie fencing)")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "kafka-broker",
		Doc:     "partition leader of the input, output and offsets partitions: idempotent appends, epoch fencing, control records, read_committed / read_uncommitted fetches",
		Options: []roles.Option{kafkaBrokerFencing},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			b := &KafkaBroker{Fencing: kafkaBrokerFencing.Get(a) == "epoch"}
			return b, kafkaBrokerTables()
		},
	})
}
