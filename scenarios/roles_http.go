package scenarios

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

func storeTable(name string, durable bool, states []string) sim.TableSpec {
	return sim.TableSpec{Name: name, Durable: durable, Traced: true, States: states}
}

var (
	storeValues     = []string{"durable", "memory"}
	clientKeyValues = []string{"per-operation", "per-attempt", "reuse-first", "server-issued"}
	lockValues      = []string{"unique-insert", "none"}
	reuseValues     = []string{"reject", "replay", "overwrite"}
)

var (
	httpClientService     = roles.Node("service", "the node it calls")
	httpClientInterval    = roles.Duration("interval", "100ms", "time between the starts of two operations")
	httpClientTimeout     = roles.Duration("timeout", "1s", "how long it waits before retrying")
	httpClientMaxAttempts = roles.Int("max-attempts", 0, 0, 1000, "attempts per operation (0 = until answered)")
	httpClientKey         = roles.Enum("key", "per-operation", clientKeyValues, "one Idempotency-Key per operation; or a bug: a fresh one per attempt, op-1's key reused by every operation, none until the server issues one in a 202")
	httpClientClicks      = roles.Int("clicks", 1, 1, 10, "requests sent at once when an operation starts (2 = the double click)")
	httpClientEndpoint    = roles.Enum("endpoint", "payments", []string{"payments", "orders"}, "POST /payments (pay) or POST /orders (order)")
	paymentServiceClient  = roles.Node("client", "where responses go")
	paymentServiceGateway = roles.Node("gateway", "the card gateway")
	paymentServiceMark    = roles.Enum("mark", "before", []string{"before", "after"}, "key written before the charge (PROCESSING), or after it")
	paymentServiceTTL     = roles.Duration("ttl", "0", "how long a key is remembered (0 = forever)")
	paymentServiceLock    = roles.Enum("lock", "unique-insert", lockValues, "a key still PROCESSING answers 409 (unique insert), or is processed again (no lock)")
	paymentServiceReuse   = roles.Enum("reuse", "reject", reuseValues, "a known key with another body: 422, the stored response (no fingerprint), or processed and overwritten")
	paymentServiceStore   = roles.Enum("store", "durable", storeValues, "the key store: a durable table, or memory lost on a crash")
	cardGatewayProvider   = roles.Enum("provider", "lookup", []string{"plain", "lookup", "idempotent"}, "no key support, status lookup by key, or dedup by key")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "http-client",
		Doc:     "issues POST /payments, one per operation; retries unanswered requests except under at-most-once",
		Options: []roles.Option{httpClientService, httpClientInterval, httpClientTimeout, httpClientMaxAttempts, httpClientKey, httpClientClicks, httpClientEndpoint},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			key := httpClientKey.Get(a)
			c := &HTTPClient{
				Service: httpClientService.Get(a), Interval: httpClientInterval.Get(a), Timeout: httpClientTimeout.Get(a),
				MaxAttempts:  int32(httpClientMaxAttempts.Get(a)),
				KeyPerTry:    key == "per-attempt",
				ReuseFirst:   key == "reuse-first",
				ServerIssued: key == "server-issued",
				Clicks:       int32(httpClientClicks.Get(a)),
				Orders:       httpClientEndpoint.Get(a) == "orders",
			}
			return c, []sim.TableSpec{{Name: "ops"}}
		},
	})
	roles.Register(&roles.Role{
		Name:    "payment-service",
		Doc:     "POST /payments: charges the card at the gateway; under the idempotent semantics follows the Idempotency-Key protocol",
		Options: []roles.Option{paymentServiceClient, paymentServiceGateway, paymentServiceStore, paymentServiceMark, paymentServiceTTL, paymentServiceLock, paymentServiceReuse},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			s := &PaymentService{
				Client: paymentServiceClient.Get(a), Gateway: paymentServiceGateway.Get(a),
				MarkAfter: paymentServiceMark.Get(a) == "after", TTL: paymentServiceTTL.Get(a),
				NoLock: paymentServiceLock.Get(a) == "none", Reuse: paymentServiceReuse.Get(a),
			}
			durable := paymentServiceStore.Get(a) == "durable"
			return s, []sim.TableSpec{storeTable("keys", durable, keyStates), {Name: "seen", Durable: true}}
		},
	})
	roles.Register(&roles.Role{
		Name:    "card-gateway",
		Doc:     "the external card provider; every charge is an effect on card-charges",
		Options: []roles.Option{cardGatewayProvider},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			g := &Gateway{Mode: cardGatewayProvider.Get(a)}
			return g, []sim.TableSpec{
				{Name: "charges", Durable: true, Traced: true, States: []string{"CHARGED"}},
				{Name: "counter", Durable: true},
			}
		},
	})
}
