package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// PartitionLeader is the leader of the partitions an idempotent producer
// writes to. Every record it appends is an effect on partition-records.
// A batch without a producer id is appended whatever it is. For one with
// a producer id the leader keeps, per (producer id, partition), the epoch
// and the last sequence appended — and, like Kafka's broker, it can
// recognise only the last idemWindow batches as duplicates:
//
//   - an epoch older than the one it knows: INVALID_PRODUCER_EPOCH;
//   - a new producer or a newer epoch: the numbering starts again, the
//     batch must be sequence 1;
//   - a sequence among the last idemWindow appended: a duplicate, not
//     appended, and answered as a success with the offset the batch got
//     when it was appended (a modern broker's answer: the cached batch
//     metadata of ProducerStateEntry.findDuplicateBatch, no error);
//   - last + 1: appended;
//   - anything else — a gap, or an old sequence it no longer remembers:
//     OUT_OF_ORDER_SEQUENCE_NUMBER. The leader cannot tell a retry of a
//     record it appended long ago from a record that overtook a lost one.
//
// That window is why Kafka caps max.in.flight.requests.per.connection at
// 5 for an idempotent producer.
type PartitionLeader struct{}

// idemWindow is how many batches per producer and partition a leader
// remembers (Kafka's ProducerStateEntry keeps 5).
const idemWindow = 5

const (
	plLog       sim.TableID = iota // offset → {Value: op, Status: partition}
	plProducers                    // (pid, partition) → a producerRow
	plBatches                      // (pid, partition, sequence) → {Value: offset}: the last idemWindow batches
)

// seqDigits is the width of the sequence field in a batch-metadata key.
const seqDigits = 6

// batchKey is the batch-metadata key of sequence seq under key (a
// (producer id, partition) key).
func batchKey(key, seq int64) int64 { return roles.TupleKey(key, seq, seqDigits) }

// partitionDigits is the width of the partition field in a (producer id,
// partition) key.
const partitionDigits = 2

// Start does nothing: the leader is driven by batches.
func (l *PartitionLeader) Start(*sim.Context) {}

// Timer is unused.
func (l *PartitionLeader) Timer(*sim.Context, sim.Timer) {}

// Receive appends, deduplicates or rejects a batch.
func (l *PartitionLeader) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgBatch {
		return
	}
	b := decodeBatch(m)
	ack := batchAck{Op: b.Op, Attempt: b.Attempt, Epoch: b.Epoch, Seq: b.Seq}
	if b.PID == 0 {
		ack.Offset = l.append(ctx, b)
		ctx.Send(m.From, ack.encode())
		return
	}
	key := roles.TupleKey(b.PID, int64(b.Partition), partitionDigits)
	rec, known := ctx.Get(plProducers, key, b.Op)
	s := decodeProducerRow(rec)
	switch {
	case known && b.Epoch < int64(s.Epoch):
		ack.Err = kafkaInvalidProducerEpoch
	case !known || b.Epoch > int64(s.Epoch):
		if b.Seq != 1 {
			ack.Err = kafkaOutOfOrderSequence
			break
		}
		if known {
			l.forget(ctx, key, s.LastSeq, b.Op) // a new numbering: the old window is over
		}
		ack.Offset = l.append(ctx, b)
		l.remember(ctx, key, 1, ack.Offset, b.Op)
		ctx.Put(plProducers, key, b.Op, producerRow{Epoch: int32(b.Epoch), LastSeq: 1, LastOffset: ack.Offset}.encode())
	case b.Seq <= s.LastSeq && b.Seq > s.LastSeq-idemWindow:
		r, _ := ctx.Get(plBatches, batchKey(key, b.Seq), b.Op)
		ack.Offset = r.Value // a duplicate: success, with the offset it was appended at
	case b.Seq == s.LastSeq+1:
		ack.Offset = l.append(ctx, b)
		l.remember(ctx, key, b.Seq, ack.Offset, b.Op)
		if b.Seq > idemWindow {
			ctx.Delete(plBatches, batchKey(key, b.Seq-idemWindow), b.Op)
		}
		ctx.Put(plProducers, key, b.Op, producerRow{Epoch: s.Epoch, LastSeq: b.Seq, LastOffset: ack.Offset}.encode())
	default:
		ack.Err = kafkaOutOfOrderSequence
	}
	ctx.Send(m.From, ack.encode())
}

// remember keeps the offset of sequence seq in the window.
func (l *PartitionLeader) remember(ctx *sim.Context, key, seq, offset int64, op sim.OpID) {
	ctx.Put(plBatches, batchKey(key, seq), op, sim.Record{State: 1, Value: offset})
}

// forget drops the window that ends at sequence last.
func (l *PartitionLeader) forget(ctx *sim.Context, key, last int64, op sim.OpID) {
	for seq := max(1, last-idemWindow+1); seq <= last; seq++ {
		ctx.Delete(plBatches, batchKey(key, seq), op)
	}
}

func (l *PartitionLeader) append(ctx *sim.Context, b batch) int64 {
	offset := int64(ctx.Rows(plLog).Len() + 1)
	ctx.Put(plLog, offset, b.Op, sim.Record{State: 1, Value: int64(b.Op), Status: b.Partition})
	ctx.Effect(SinkPartitionRecords, b.Op, offset)
	return offset
}

// buildIdemleader builds a kafka-partition-leader node from its options, each declared where it is read.
func buildIdemleader(a *roles.Args) (sim.Node, []sim.TableSpec) {
	return &PartitionLeader{}, []sim.TableSpec{
		{Name: "partition-log", Durable: true, Traced: true, States: []string{"", "RECORD"}},
		{Name: "producer-state", Durable: true, Traced: true},
		{Name: "batch-metadata", Durable: true},
	}
}
