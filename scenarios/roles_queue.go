package scenarios

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

var (
	producerBroker   = roles.Node("broker", "the broker")
	producerInterval = roles.Duration("interval", "100ms", "time between two publishes")
	producerTimeout  = roles.Duration("timeout", "1s", "how long it waits for the ack before republishing")
	brokerConsumer   = roles.Node("consumer", "where records are delivered")
	brokerVisibility = roles.Duration("visibility", "1s", "how long it waits for a commit before redelivering")
	consumerBroker   = roles.Node("broker", "where commits go")
	consumerStore    = roles.Enum("store", "durable", storeValues, "the dedup store: durable, or memory lost on a crash")
	consumerMark     = roles.Enum("mark", "before", []string{"before", "after"}, "dedup row written with the effect, or after it")
	consumerTTL      = roles.Duration("ttl", "0", "how long a dedup row is remembered (0 = forever)")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "producer",
		Doc:     "publishes one record per operation; republishes until acknowledged except under at-most-once",
		Options: []roles.Option{producerBroker, producerInterval, producerTimeout},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			p := &Producer{Broker: producerBroker.Get(a), Interval: producerInterval.Get(a), Timeout: producerTimeout.Get(a)}
			return p, []sim.TableSpec{{Name: "ops"}}
		},
	})
	roles.Register(&roles.Role{
		Name:    "broker",
		Doc:     "a durable log with offsets; redelivers uncommitted records after a visibility timeout",
		Options: []roles.Option{brokerConsumer, brokerVisibility},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			b := &Broker{Consumer: brokerConsumer.Get(a), Visibility: brokerVisibility.Get(a)}
			return b, []sim.TableSpec{{Name: "log", Durable: true}, {Name: "seen", Durable: true}}
		},
	})
	roles.Register(&roles.Role{
		Name:    "consumer",
		Doc:     "processes delivered records into the billing sink and commits their offsets",
		Options: []roles.Option{consumerBroker, consumerStore, consumerMark, consumerTTL},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			c := &Consumer{Broker: consumerBroker.Get(a), MarkAfter: consumerMark.Get(a) == "after", TTL: consumerTTL.Get(a)}
			durable := consumerStore.Get(a) == "durable"
			return c, []sim.TableSpec{storeTable("dedup", durable, keyStates), {Name: "seen", Durable: true}}
		},
	})
}
