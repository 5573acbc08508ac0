package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestBrokerCrashFlagsEveryRecoveredMessage: rabbitmq-broker-crash's
// broker does what TestIntegrationRabbitMQBrokerCrash (brokers/) saw a
// real RabbitMQ 3.10.8 do after a SIGKILL and a restart: every message it
// recovers comes back with Redelivered=true (the delivery's value 1),
// messages it had never delivered included, and no delivery carries the
// flag before a crash. Over seeds 1..200 under alo.
func TestBrokerCrashFlagsEveryRecoveredMessage(t *testing.T) {
	sc, err := scenarios.Lookup("rabbitmq-broker-crash")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: sc.Ops, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	broker, _ := cfg.Topology.NodeByName("broker")
	deliver, _ := cfg.Topology.MessageByName("deliver")
	neverDelivered, crashes := 0, 0
	for seed := uint64(1); seed <= 200; seed++ {
		events, _ := runTrace(t, cfg, cfg, seed)
		delivered := map[int64]bool{} // message number → delivered before
		stored := map[int64]bool{}    // message numbers written to disk
		recovered := map[int64]bool{} // those on disk at a crash
		crashed := false
		for _, e := range events {
			switch {
			case e.Kind == sim.EvCrash && e.Node == broker:
				crashed = true
				crashes++
				for k := range stored {
					recovered[k] = true
				}
			case e.Kind == sim.EvStorePut && e.Node == broker:
				stored[e.Msg.Key] = true
			case e.Kind == sim.EvSend && e.Node == broker && e.Msg.Kind == deliver:
				flagged := e.Msg.Value == 1
				switch {
				case !crashed && flagged:
					t.Errorf("seed %d: message %d (op-%d) flagged Redelivered before any crash", seed, e.Msg.Key, e.Msg.Op)
				case recovered[e.Msg.Key] && !flagged:
					t.Errorf("seed %d: message %d (op-%d) recovered after the crash without Redelivered=true", seed, e.Msg.Key, e.Msg.Op)
				case flagged && !delivered[e.Msg.Key]:
					neverDelivered++
				}
				delivered[e.Msg.Key] = true
			}
		}
	}
	if crashes == 0 || neverDelivered == 0 {
		t.Errorf("over 200 seeds: %d broker crashes, %d never-delivered messages flagged Redelivered=true after one; want some of each", crashes, neverDelivered)
	}
	t.Logf("200 seeds: %d broker crashes, %d never-delivered messages came back flagged", crashes, neverDelivered)
}
