package brokers

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/oncesim/once/scenarios/roles/kafka"
	"github.com/oncesim/once/sim"
)

// producerDriver runs idempotent-producer-retry's producer with franz-go
// against kfake — franz-go's in-process cluster that speaks Kafka's
// protocol; it is not Apache Kafka. Each operation is one record, to
// partition (op-1) mod partitions, produced one at a time (acks=all). The
// decider decides each produce request as the simulator's network decides
// the batch and its ack: a lost batch is refused before the append
// (NOT_LEADER_OR_FOLLOWER, and the client retries); a lost ack is the
// append answered NOT_ENOUGH_REPLICAS_AFTER_APPEND — the record is in the
// log, the client does not know and retries. With idempotence (the
// producer id and per-partition sequence numbers) kfake recognises the
// retry; without, it appends it again. The records are then read back
// and counted per operation in SQLite.
type producerDriver struct {
	producer, leader sim.NodeID
	partitions       int
	idempotence      bool
	batch, batchAck  sim.MsgKind
	leaderName       string
}

func newProducerDriver(cfg *sim.Config) *producerDriver {
	d := &producerDriver{}
	found := 0
	for i, n := range cfg.Nodes {
		if r, ok := n.(*kafka.IdemProducer); ok {
			d.producer, d.leader, d.partitions, d.idempotence = sim.NodeID(i), r.Broker, int(r.Partitions), r.Idempotence
			found++
		}
	}
	if found != 1 {
		return nil
	}
	n := lookup(cfg.Topology)
	d.batch, d.batchAck = n.msg("produce-batch"), n.msg("produce-batch-ack")
	if !n.ok {
		return nil
	}
	d.leaderName = cfg.Topology.NodeName(d.leader)
	return d
}

func (d *producerDriver) variants(sim.Semantics) []string { return nil }

func (d *producerDriver) effectNode() string { return d.leaderName }

// applies: a lost batch and a lost ack, inside kfake.
func (d *producerDriver) applies() []sim.FaultKind {
	return []sim.FaultKind{sim.FaultLoss, sim.FaultAckLoss}
}

// produceRun is one run's state: the operation being produced and its
// attempt, and what the decider said of each request kfake saw.
type produceRun struct {
	mu      sync.Mutex
	op      int
	attempt int
	fates   map[kmsg.Request]*produceFate
	seen    chan struct{} // a request of the current operation reached kfake (acks=0 waits for it)
}

type produceFate struct{ lost, ackLost bool }

func (d *producerDriver) run(ctx context.Context, e *env) (bool, error) {
	idem := d.idempotence && e.cfg.Semantics == sim.Idempotent
	amo := e.cfg.Semantics == sim.AtMostOnce // acks=0: no answer is read, nothing is retried
	topic := e.prefix
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(int32(d.partitions), topic))
	if err != nil {
		return false, fmt.Errorf("brokers: kfake: %w", err)
	}
	defer c.Close()
	r := &produceRun{fates: map[kmsg.Request]*produceFate{}, seen: make(chan struct{}, 1)}
	fate := func(req kmsg.Request) *produceFate {
		r.mu.Lock()
		defer r.mu.Unlock()
		if f, ok := r.fates[req]; ok {
			return f
		}
		r.attempt++
		f := &produceFate{}
		m := sim.Message{Kind: d.batch, From: d.producer, To: d.leader, Op: sim.OpID(r.op), Attempt: int32(r.attempt)}
		if f.lost = e.dec.Transmit(m).Drop; !f.lost && !amo {
			e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.leader, Peer: d.producer, Msg: m})
			ack := sim.Message{Kind: d.batchAck, From: d.leader, To: d.producer, Op: sim.OpID(r.op), Attempt: int32(r.attempt)}
			f.ackLost = e.dec.Transmit(ack).Drop
		}
		if !f.lost && amo {
			e.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: d.leader, Peer: d.producer, Msg: m})
		}
		r.fates[req] = f
		select {
		case r.seen <- struct{}{}:
		default:
		}
		switch {
		case f.lost && amo:
			e.say("op-%d: the batch is lost (kfake refuses the append; with acks=0 franz-go reads no answer and never retries: the record is lost)", r.op)
		case f.lost:
			e.say("op-%d attempt %d: the batch is lost (kfake answers NOT_LEADER_OR_FOLLOWER before the append; franz-go retries)", r.op, r.attempt)
		case f.ackLost:
			e.say("op-%d attempt %d: appended, the ack is lost (kfake answers NOT_ENOUGH_REPLICAS_AFTER_APPEND; franz-go retries)", r.op, r.attempt)
		}
		return f
	}
	c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Topic: topic, Err: kerr.NotLeaderForPartition, Count: -1,
		When: func(req kmsg.Request) bool { return fate(req).lost }})
	c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Topic: topic, Err: kerr.NotEnoughReplicasAfterAppend, Count: -1,
		When: func(req kmsg.Request) bool { return fate(req).ackLost }})
	opts := []kgo.Opt{kgo.SeedBrokers(c.ListenAddrs()...), kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerBatchCompression(kgo.NoCompression()), kgo.RecordRetries(20),
		kgo.RetryBackoffFn(func(int) time.Duration { return 10 * time.Millisecond })}
	acks := "acks=all"
	if amo {
		acks = "acks=0"
		opts = append(opts, kgo.RequiredAcks(kgo.NoAck()))
	} else {
		opts = append(opts, kgo.RequiredAcks(kgo.AllISRAcks()))
	}
	if !idem {
		opts = append(opts, kgo.DisableIdempotentWrite())
	}
	e.say("kfake is not Apache Kafka: franz-go's in-process cluster speaking Kafka's protocol; idempotence %v, %s, one record at a time", idem, acks)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return false, fmt.Errorf("brokers: franz-go: %w", err)
	}
	defer cl.Close()
	for op := 1; op <= e.cfg.Ops; op++ {
		r.mu.Lock()
		r.op, r.attempt = op, 0
		r.mu.Unlock()
		rec := &kgo.Record{Key: []byte(strconv.Itoa(op)), Value: []byte("op-" + strconv.Itoa(op)), Partition: int32((op - 1) % d.partitions)}
		if err := cl.ProduceSync(ctx, rec).FirstErr(); err != nil {
			if ctx.Err() != nil {
				return false, nil
			}
			return false, fmt.Errorf("brokers: kfake: produce op-%d: %w", op, err)
		}
		if amo { // acks=0 returns once the request is written: wait until kfake has it, so it is decided as this operation's
			select {
			case <-r.seen:
			case <-time.After(10 * time.Second):
				return false, fmt.Errorf("brokers: kfake: op-%d's produce request never reached the cluster", op)
			case <-ctx.Done():
				return false, nil
			}
		}
	}
	return true, d.count(ctx, e, c, topic)
}

// count reads every record of the topic back and writes one charge row
// per record into the run's ledger: the effects, per operation.
func (d *producerDriver) count(ctx context.Context, e *env, c *kfake.Cluster, topic string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(200*time.Millisecond))
	if err != nil {
		return fmt.Errorf("brokers: franz-go: %w", err)
	}
	defer cl.Close()
	db, err := openLedger(ledgerPath(e.dir))
	if err != nil {
		return err
	}
	defer db.Close()
	idle := 0
	for idle < 3 {
		pctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		fs := cl.PollFetches(pctx)
		cancel()
		n := 0
		var insertErr error
		fs.EachRecord(func(r *kgo.Record) {
			n++
			op, _ := strconv.Atoi(string(r.Key))
			if insertErr == nil {
				insertErr = insertRecord(ctx, db, op, r.Partition, r.Offset)
			}
		})
		if insertErr != nil {
			return insertErr
		}
		if n == 0 {
			idle++
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	return nil
}

// insertRecord is one record of the log, as a charge row of its op.
func insertRecord(ctx context.Context, db *sql.DB, op int, partition int32, offset int64) error {
	_, err := db.ExecContext(ctx, "INSERT INTO charges (op, by_node, delivery) VALUES (?, ?, ?)", op, fmt.Sprintf("partition-%d", partition), offset)
	if err != nil {
		return fmt.Errorf("brokers: count the records: %w", err)
	}
	return nil
}
