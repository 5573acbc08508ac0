package scenarios

import "github.com/oncesim/once/sim"

func init() {
	registerRole(&Role{
		Name: "producer",
		Doc:  "publishes one record per operation; republishes until acknowledged except under at-most-once",
		Options: []RoleOption{
			{Name: "broker", Kind: "node", Doc: "the broker"},
			{Name: "interval", Kind: "duration", Default: "100ms", Doc: "time between two publishes"},
			{Name: "timeout", Kind: "duration", Default: "1s", Doc: "how long it waits for the ack before republishing"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			p := &Producer{Broker: a.Node("broker"), Interval: a.Duration("interval", 100), Timeout: a.Duration("timeout", 1000)}
			return p, []sim.TableSpec{{Name: "ops"}}
		},
	})
	registerRole(&Role{
		Name: "broker",
		Doc:  "a durable log with offsets; redelivers uncommitted records after a visibility timeout",
		Options: []RoleOption{
			{Name: "consumer", Kind: "node", Doc: "where records are delivered"},
			{Name: "visibility", Kind: "duration", Default: "1s", Doc: "how long it waits for a commit before redelivering"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			b := &Broker{Consumer: a.Node("consumer"), Visibility: a.Duration("visibility", 1000)}
			return b, []sim.TableSpec{{Name: "log", Durable: true}, {Name: "seen", Durable: true}}
		},
	})
	registerRole(&Role{
		Name: "consumer",
		Doc:  "processes delivered records into the billing sink and commits their offsets",
		Options: []RoleOption{
			{Name: "broker", Kind: "node", Doc: "where commits go"},
			{Name: "store", Kind: "enum", Default: "durable", Values: storeValues, Doc: "the dedup store: durable, or memory lost on a crash"},
			{Name: "mark", Kind: "enum", Default: "before", Values: []string{"before", "after"}, Doc: "dedup row written with the effect, or after it"},
			{Name: "ttl", Kind: "duration", Default: "0", Doc: "how long a dedup row is remembered (0 = forever)"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			c := &Consumer{Broker: a.Node("broker"), MarkAfter: a.Enum("mark", "before", "before", "after") == "after", TTL: a.Duration("ttl", 0)}
			durable := a.Enum("store", "durable", storeValues...) == "durable"
			return c, []sim.TableSpec{storeTable("dedup", durable, keyStates), {Name: "seen", Durable: true}}
		},
	})
}
