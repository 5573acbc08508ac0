package scenarios

import "github.com/oncesim/once/sim"

func storeTable(name string, durable bool, states []string) sim.TableSpec {
	return sim.TableSpec{Name: name, Durable: durable, Traced: true, States: states}
}

var (
	storeValues     = []string{"durable", "memory"}
	clientKeyValues = []string{"per-operation", "per-attempt", "reuse-first", "server-issued"}
	lockValues      = []string{"unique-insert", "none"}
	reuseValues     = []string{"reject", "replay", "overwrite"}
)

// newPaymentService reads the options payment-service and the roles built
// on it share.
func newPaymentService(a *RoleArgs) *PaymentService {
	return &PaymentService{
		Client: a.Node("client"), Gateway: a.Node("gateway"),
		MarkAfter: a.Enum("mark", "before", "before", "after") == "after", TTL: a.Duration("ttl", 0),
		NoLock: a.Enum("lock", "unique-insert", lockValues...) == "none",
		Reuse:  a.Enum("reuse", "reject", reuseValues...),
	}
}

func init() {
	registerRole(&Role{
		Name: "http-client",
		Doc:  "issues POST /payments, one per operation; retries unanswered requests except under at-most-once",
		Options: []RoleOption{
			{Name: "service", Kind: "node", Doc: "the node it calls"},
			{Name: "interval", Kind: "duration", Default: "100ms", Doc: "time between the starts of two operations"},
			{Name: "timeout", Kind: "duration", Default: "1s", Doc: "how long it waits before retrying"},
			{Name: "max-attempts", Kind: "int", Default: "0", Doc: "attempts per operation (0 = until answered)"},
			{Name: "key", Kind: "enum", Default: "per-operation", Values: clientKeyValues, Doc: "one Idempotency-Key per operation; or a bug: a fresh one per attempt, op-1's key reused by every operation, none until the server issues one in a 202"},
			{Name: "clicks", Kind: "int", Default: "1", Doc: "requests sent at once when an operation starts (2 = the double click)"},
			{Name: "endpoint", Kind: "enum", Default: "payments", Values: []string{"payments", "orders"}, Doc: "POST /payments (pay) or POST /orders (order)"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			key := a.Enum("key", "per-operation", clientKeyValues...)
			c := &HTTPClient{
				Service: a.Node("service"), Interval: a.Duration("interval", 100), Timeout: a.Duration("timeout", 1000),
				MaxAttempts:  int32(a.Int("max-attempts", 0, 0, 1000)),
				KeyPerTry:    key == "per-attempt",
				ReuseFirst:   key == "reuse-first",
				ServerIssued: key == "server-issued",
				Clicks:       int32(a.Int("clicks", 1, 1, 10)),
				Orders:       a.Enum("endpoint", "payments", "payments", "orders") == "orders",
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
			{Name: "lock", Kind: "enum", Default: "unique-insert", Values: lockValues, Doc: "a key still PROCESSING answers 409 (unique insert), or is processed again (no lock)"},
			{Name: "reuse", Kind: "enum", Default: "reject", Values: reuseValues, Doc: "a known key with another body: 422, the stored response (no fingerprint), or processed and overwritten"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			s := newPaymentService(a)
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
