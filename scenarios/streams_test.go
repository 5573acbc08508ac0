package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles/kafka"
	"github.com/oncesim/once/sim"
)

// runSeeds runs a catalog scenario under sem with params over seeds
// 1..n, with the scenario's default faults changed by tweak (if any).
func runSeeds(t *testing.T, name string, sem sim.Semantics, params map[string]string, n uint64, tweak func(*scenarios.Faults)) []*sim.Outcome {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults, Params: params}
	if tweak != nil {
		tweak(&set.Faults)
	}
	var out []*sim.Outcome
	for seed := uint64(1); seed <= n; seed++ {
		o, err := runs.Outcome(sc, set, sim.NewRandom(seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

func metric(o *sim.Outcome, name string) (float64, bool) {
	for _, m := range o.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// An unfenced zombie's late write must not take the partition's producer
// epoch back, and a pending offset commit of a finished transaction must
// not block offset-fetch forever: before the fix most fencing=none runs of
// transaction-abort were cut by the event budget, the processor asking
// for its offsets in a loop.
func TestUnfencedZombieRunsFinish(t *testing.T) {
	for i, o := range runSeeds(t, "transaction-abort", sim.Transactional, map[string]string{"fencing": "none"}, 40, nil) {
		if !o.Finished() {
			t.Errorf("seed %d: %s after %d events (%s)", i+1, o.End, o.Events, o.Why)
		}
	}
}

// The coordinator's transaction timeout is a real timer: a producer frozen
// far longer than the timeout holds the readers back about as long as the
// timeout, not as long as its pause. Without the timer (txn-timeout=0)
// the same runs keep a transaction open for the whole pause.
func TestCoordinatorAbortsAbandonedTransactions(t *testing.T) {
	pause := func(f *scenarios.Faults) {
		*f = scenarios.Faults{}
		f.Probability[sim.FaultPause] = 0.3
		f.Duration[sim.FaultPause] = 8000
	}
	longest := func(params map[string]string) float64 {
		m := 0.0
		for _, o := range runSeeds(t, "transaction-abort", sim.Transactional, params, 20, pause) {
			if o.Count(sim.Duplicated) > 0 || o.Count(sim.Lost) > 0 || o.Status != sim.Held {
				t.Fatalf("txn-timeout=%s: %s", params["txn-timeout"], o.Why)
			}
			v, ok := metric(o, "open-txn-ms")
			if !ok {
				t.Fatal("no open-txn-ms metric")
			}
			m = max(m, v)
		}
		return m
	}
	with, without := longest(map[string]string{"txn-timeout": "1s"}), longest(map[string]string{"txn-timeout": "0"})
	t.Logf("longest open transaction: %vms with a 1s timeout, %vms without", with, without)
	if with > 1200 || without < 8000 {
		t.Errorf("longest open transaction: %vms with a 1s timeout (want ≤ 1200), %vms without (want ≥ 8000)", with, without)
	}
}

// The zombie of kafka-zombie-fencing is live: it resumes after the
// takeover and writes with its old epoch. Fenced, no run breaks an
// invariant; unfenced, its writes get through in some run.
// TestZombieIsFenced checks both designs of kafka-zombie-fencing: with
// per-instance transactional ids the group's generation check on the
// zombie's offsets fences it (KIP-447) and nothing else does; with the
// shared per-partition id the epoch bump does, even without group
// metadata.
func TestZombieIsFenced(t *testing.T) {
	violated := func(params map[string]string) int {
		n := 0
		for _, o := range runSeeds(t, "kafka-zombie-fencing", sim.Transactional, params, 40, nil) {
			for _, inv := range o.Invariants {
				if inv.Violation != "" {
					n++
					break
				}
			}
		}
		return n
	}
	for _, c := range []struct {
		params map[string]string
		broken bool
	}{
		{nil, false},
		{map[string]string{"group-metadata": "group-id"}, true},
		{map[string]string{"txn-id": "partition", "group-metadata": "group-id"}, false},
		{map[string]string{"txn-id": "partition", "group-metadata": "group-id", "fencing": "none"}, true},
	} {
		n := violated(c.params)
		if c.broken && n == 0 {
			t.Errorf("%v: no run let the zombie's write through", c.params)
		}
		if !c.broken && n != 0 {
			t.Errorf("%v: %d runs broke an invariant", c.params, n)
		}
	}
}

// TestKafkaBrokerAnswersDuplicateProduceWithItsOffset: a network copy of a
// transactional produce already appended is answered as a modern broker
// answers a duplicate within its 5-batch window — success, with the offset
// the batch was appended at (ProducerStateEntry.findDuplicateBatch) — and
// never appended twice.
func TestKafkaBrokerAnswersDuplicateProduceWithItsOffset(t *testing.T) {
	sc, err := scenarios.Lookup("kafka-eos-happy-path")
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sim.Transactional, Ops: sc.Ops}
	if err := set.Faults.Set("dup", "0.5"); err != nil {
		t.Fatal(err)
	}
	type batch struct {
		op      sim.OpID
		attempt int32
		seq     int64
	}
	copies := 0
	for seed := uint64(1); seed <= 20; seed++ {
		var tr sim.Trace
		if _, err := runs.Outcome(sc, set, sim.NewRandom(seed), &tr); err != nil {
			t.Fatal(err)
		}
		offsets := map[batch]int64{}
		for _, e := range tr.Events {
			if e.Kind != sim.EvSend || e.Msg.Kind != kafka.MsgProduceAck {
				continue
			}
			if e.Msg.Status != 0 || e.Msg.Key == 0 {
				t.Fatalf("seed %d: produce-ack %+v: want success with an offset", seed, e.Msg)
			}
			b := batch{e.Msg.Op, e.Msg.Attempt, e.Msg.Payload}
			if first, ok := offsets[b]; ok {
				copies++
				if first != e.Msg.Key {
					t.Fatalf("seed %d: duplicate of %+v answered with offset %d, first appended at %d", seed, b, e.Msg.Key, first)
				}
			}
			offsets[b] = e.Msg.Key
		}
	}
	if copies == 0 {
		t.Fatal("no seed delivered a copy of a produce: the test checks nothing")
	}
}
