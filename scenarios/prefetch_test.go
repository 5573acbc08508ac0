package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestAtMostOncePrefetchOneKeepsRecordsForADownConsumer:
// idempotent-consumer-dedup's broker under at-most-once delivers as a
// real RabbitMQ does to a consumer with basic.qos 1 that acks before it
// works (docs/broker-agreement.md): a record published while the
// consumer is down waits and is charged after its restart. With crashes
// as the only fault, over seeds 1..200, an operation is charged once
// unless its record met the crash after its commit, never twice; and
// some records were published while the consumer was down (else the
// property says nothing).
func TestAtMostOncePrefetchOneKeepsRecordsForADownConsumer(t *testing.T) {
	sc, err := scenarios.Lookup("idempotent-consumer-dedup")
	if err != nil {
		t.Fatal(err)
	}
	faults := scenarios.Faults{}
	faults.Probability[sim.FaultCrash] = 0.3
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtMostOnce, Ops: sc.Ops, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	consumer, _ := cfg.Topology.NodeByName("consumer")
	broker, _ := cfg.Topology.NodeByName("broker")
	publish, _ := cfg.Topology.MessageByName("publish")
	publishedWhileDown, crashes := 0, 0
	for seed := uint64(1); seed <= 200; seed++ {
		events, out := runTrace(t, cfg, cfg, seed)
		if !out.Finished() {
			t.Fatalf("seed %d: the run did not finish", seed)
		}
		crashed := map[sim.OpID]bool{} // ops whose record met the crash after its commit
		down := false
		for _, e := range events {
			switch {
			case e.Kind == sim.EvCrash && e.Node == consumer:
				crashed[e.Msg.Op], down = true, true
				crashes++
			case e.Kind == sim.EvRestart && e.Node == consumer:
				down = false
			case e.Kind == sim.EvDeliver && e.Node == broker && e.Msg.Kind == publish && down:
				publishedWhileDown++
			}
		}
		for i, o := range out.Ops {
			op := sim.OpID(i + 1)
			switch {
			case o.Effects > 1:
				t.Errorf("seed %d: op-%d charged %d times under at-most-once", seed, op, o.Effects)
			case o.Effects == 0 && !crashed[op]:
				t.Errorf("seed %d: op-%d never charged, and its record met no crash (a record published while the consumer was down must wait for it)", seed, op)
			}
		}
	}
	if crashes == 0 || publishedWhileDown == 0 {
		t.Errorf("over 200 seeds: %d consumer crashes, %d records published while the consumer was down; want some of each", crashes, publishedWhileDown)
	}
}
