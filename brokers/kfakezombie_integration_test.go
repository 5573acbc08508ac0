//go:build integration

package brokers

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestIntegrationKfakeZombieFencing: transactions and zombie fencing on
// kfake (franz-go's in-process Kafka-protocol cluster, not Apache Kafka),
// against kafka-zombie-fencing's txn-id=partition row (before KIP-447:
// one transactional id per input partition, shared by whoever owns it).
// A producer with the transactional id begins a transaction and writes a
// record, then freezes; a second producer with the same id initialises it
// (InitProducerID: the epoch is bumped and the open transaction aborted),
// writes and commits. The zombie's commit fails with PRODUCER_FENCED (90;
// INVALID_PRODUCER_EPOCH, 47, from an older broker), and a read_committed
// consumer sees the new owner's record only. The simulator's coordinator
// answers the zombie's end-txn with the same code 90 and its effects stay
// once.
func TestIntegrationKfakeZombieFencing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const topic = "out"
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, topic))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	producer := func() *kgo.Client {
		cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.DefaultProduceTopic(topic), kgo.TransactionalID("once-job-partition-0"),
			kgo.TransactionTimeout(time.Minute), kgo.RecordRetries(3))
		if err != nil {
			t.Fatal(err)
		}
		return cl
	}
	zombie := producer()
	defer zombie.Close()
	if err := zombie.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := zombie.ProduceSync(ctx, &kgo.Record{Value: []byte("zombie")}).FirstErr(); err != nil {
		t.Fatalf("the first owner's write: %v", err)
	}
	owner := producer()
	defer owner.Close()
	if err := owner.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := owner.ProduceSync(ctx, &kgo.Record{Value: []byte("owner")}).FirstErr(); err != nil {
		t.Fatalf("the new owner's write: %v", err)
	}
	if err := owner.EndTransaction(ctx, kgo.TryCommit); err != nil {
		t.Fatalf("the new owner's commit: %v", err)
	}
	err = zombie.EndTransaction(ctx, kgo.TryCommit)
	if !errors.Is(err, kerr.ProducerFenced) && !errors.Is(err, kerr.InvalidProducerEpoch) {
		t.Errorf("the zombie's commit: %v, want PRODUCER_FENCED or INVALID_PRODUCER_EPOCH", err)
	}
	t.Logf("kfake (not Apache Kafka): the zombie's commit answered %v", err)

	reader, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ConsumeTopics(topic), kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	var got []string
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		pollCtx, stop := context.WithTimeout(ctx, 500*time.Millisecond)
		fs := reader.PollFetches(pollCtx)
		stop()
		fs.EachRecord(func(r *kgo.Record) { got = append(got, string(r.Value)) })
	}
	if len(got) != 1 || got[0] != "owner" {
		t.Errorf("read_committed sees %q, want the new owner's record only", got)
	}

	// The model: the same row, the seeds whose pause froze the owner.
	sc, err := scenarios.Lookup("kafka-zombie-fencing")
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sim.Transactional, Ops: sc.Ops, Faults: sc.Faults,
		Params: map[string]string{"txn-id": "partition", "group-metadata": "group-id"}}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	endTxn, _ := cfg.Topology.MessageByName("end-txn-result")
	fenced := 0
	for seed := uint64(1); seed <= 20; seed++ {
		var tr sim.Trace
		out, err := runs.Outcome(sc, set, sim.NewRandom(seed), &tr)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tr.Events {
			if e.Kind == sim.EvSend && e.Msg.Kind == endTxn && e.Msg.Status == int32(kerr.ProducerFenced.Code) {
				fenced++
				if out.Status != sim.Held {
					t.Errorf("seed %d: the model fenced the zombie's end-txn (90) yet %s", seed, out.Why)
				}
				break
			}
		}
	}
	if fenced == 0 {
		t.Errorf("seeds 1..20 of kafka-zombie-fencing txn-id=partition: no end-txn answered PRODUCER_FENCED (%d) in the model", kerr.ProducerFenced.Code)
	}
	t.Logf("the model: %d of 20 seeds answer the zombie's end-txn PRODUCER_FENCED (%d), every one held", fenced, kerr.ProducerFenced.Code)
}
