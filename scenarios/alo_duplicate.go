package scenarios

import "github.com/oncesim/once/sim"

var paramVisibility = Param{Name: "visibility", Kind: ParamDuration, Default: "1s", Min: 1, Max: 3_600_000,
	Doc: "how long the broker waits for a commit before redelivering"}

func init() {
	register(&Scenario{
		Name:      "at-least-once-duplicate",
		Topology:  "queue",
		Summary:   "the consumer bills, crashes before committing its offset, the broker redelivers",
		Semantics: []sim.Semantics{sim.AtMostOnce, sim.AtLeastOnce, sim.Idempotent},
		Params:    []Param{paramStore, paramTTL, paramMark, paramTimeout, paramVisibility, paramInterval},
		Faults:    Faults{LossProbability: 0.05, AckLossProbability: 0.1, CrashProbability: 0.2},
		Ops:       5,
		build:     buildAtLeastOnceDuplicate,
	})
}

// buildAtLeastOnceDuplicate wires Producer → Broker → Consumer (+ dedup
// store) → billing sink. Publishes and deliveries are requests (--loss);
// publish acks and offset commits are acknowledgements (--ack-loss).
func buildAtLeastOnceDuplicate(b *builder) error {
	p := b.params
	producer := b.add(producerSpec(), &Producer{Broker: 1, Interval: p.Duration("interval"), Timeout: p.Duration("timeout")})
	broker := b.add(brokerSpec(), &Broker{Consumer: 2, Visibility: p.Duration("visibility")})
	consumer := b.add(consumerSpec(p.Is("store", "durable"), b.set.Faults.CrashProbability), &Consumer{
		Broker: 1, MarkAfter: p.Is("mark", "after"), TTL: p.Duration("ttl"),
	})
	b.wire()
	b.requestLink(producer, broker, 10, 10)
	b.responseLink(broker, producer, 10, 10)
	b.requestLink(broker, consumer, 10, 10)
	b.responseLink(consumer, broker, 10, 10)
	b.observe = sim.Observation{Origin: broker, Request: MsgDeliver, Processor: consumer, Sinks: 1 << SinkBilling}
	return nil
}
