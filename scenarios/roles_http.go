package scenarios

import "github.com/oncesim/once/sim"

func storeTable(name string, durable bool, states []string) sim.TableSpec {
	return sim.TableSpec{Name: name, Durable: durable, Traced: true, States: states}
}

var storeValues = []string{"durable", "memory"}

func init() {
	registerRole(&Role{
		Name: "http-client",
		Doc:  "issues POST /payments, one per operation; retries unanswered requests except under at-most-once",
		Options: []RoleOption{
			{Name: "service", Kind: "node", Doc: "the node it calls"},
			{Name: "interval", Kind: "duration", Default: "100ms", Doc: "time between the starts of two operations"},
			{Name: "timeout", Kind: "duration", Default: "1s", Doc: "how long it waits before retrying"},
			{Name: "max-attempts", Kind: "int", Default: "0", Doc: "attempts per operation (0 = until answered)"},
			{Name: "key", Kind: "enum", Default: "per-operation", Values: []string{"per-operation", "per-attempt"}, Doc: "one Idempotency-Key per operation, or a fresh one per attempt (the bug)"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			c := &HTTPClient{
				Service: a.Node("service"), Interval: a.Duration("interval", 100), Timeout: a.Duration("timeout", 1000),
				MaxAttempts: int32(a.Int("max-attempts", 0, 0, 1000)),
				KeyPerTry:   a.Enum("key", "per-operation", "per-operation", "per-attempt") == "per-attempt",
			}
			return c, []sim.TableSpec{{Name: "ops"}}
		},
	})
	registerRole(&Role{
		Name: "payment-service",
		Doc:  "POST /payments: charges the card at the gateway; under the idempotent semantics follows the Idempotency-Key protocol",
		Options: []RoleOption{
			{Name: "client", Kind: "node", Doc: "where responses go"},
			{Name: "gateway", Kind: "node", Doc: "the card gateway"},
			{Name: "store", Kind: "enum", Default: "durable", Values: storeValues, Doc: "the key store: a durable table, or memory lost on a crash"},
			{Name: "mark", Kind: "enum", Default: "before", Values: []string{"before", "after"}, Doc: "key written before the charge (PROCESSING), or after it"},
			{Name: "ttl", Kind: "duration", Default: "0", Doc: "how long a key is remembered (0 = forever)"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			s := &PaymentService{
				Client: a.Node("client"), Gateway: a.Node("gateway"),
				MarkAfter: a.Enum("mark", "before", "before", "after") == "after", TTL: a.Duration("ttl", 0),
			}
			durable := a.Enum("store", "durable", storeValues...) == "durable"
			return s, []sim.TableSpec{storeTable("keys", durable, keyStates), {Name: "seen", Durable: true}}
		},
	})
	registerRole(&Role{
		Name: "card-gateway",
		Doc:  "the external card provider; every charge is an effect on card-charges",
		Options: []RoleOption{
			{Name: "provider", Kind: "enum", Default: "lookup", Values: []string{"plain", "lookup", "idempotent"}, Doc: "no key support, status lookup by key, or dedup by key"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			g := &Gateway{Mode: a.Enum("provider", "lookup", "plain", "lookup", "idempotent")}
			return g, []sim.TableSpec{
				{Name: "charges", Durable: true, Traced: true, States: []string{"CHARGED"}},
				{Name: "counter", Durable: true},
			}
		},
	})
}
