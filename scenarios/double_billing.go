package scenarios

import "github.com/oncesim/once/sim"

// Parameters shared by the HTTP family.
var (
	paramStore = Param{Name: "store", Kind: ParamEnum, Default: "durable", Values: []string{"durable", "memory"},
		Doc: "where the key/dedup store lives: a durable table, or memory lost on a crash"}
	paramTTL = Param{Name: "ttl", Kind: ParamDuration, Default: "0", Min: 0,
		Doc: "how long a key is remembered (0 = forever)"}
	paramKey = Param{Name: "key", Kind: ParamEnum, Default: "per-operation", Values: []string{"per-operation", "per-attempt"},
		Doc: "one Idempotency-Key per operation, or a fresh key per attempt (the bug)"}
	paramMark = Param{Name: "mark", Kind: ParamEnum, Default: "before", Values: []string{"before", "after"},
		Doc: "key written before the side effect, or after it (check, call, mark)"}
	paramProvider = Param{Name: "provider", Kind: ParamEnum, Default: "lookup", Values: []string{"plain", "lookup", "idempotent"},
		Doc: "the gateway: no key support, status lookup by key, or dedup by key"}
	paramTimeout = Param{Name: "timeout", Kind: ParamDuration, Default: "1s", Min: 1, Max: 3_600_000,
		Doc: "how long a sender waits before retrying"}
	paramInterval = Param{Name: "interval", Kind: ParamDuration, Default: "100ms", Min: 0, Max: 3_600_000,
		Doc: "time between the starts of two operations"}
)

func init() {
	register(&Scenario{
		Name:      "double-billing",
		Topology:  "http",
		Summary:   "POST /payments: the gateway charges, the response is lost, the client retries",
		Semantics: []sim.Semantics{sim.AtMostOnce, sim.AtLeastOnce, sim.Idempotent},
		Params:    []Param{paramStore, paramTTL, paramKey, paramMark, paramProvider, paramTimeout, paramInterval},
		Faults:    Faults{LossProbability: 0.1, AckLossProbability: 0.3},
		Ops:       5,
		build:     buildDoubleBilling,
	})
}

// buildDoubleBilling wires Client → Payment service (+ key store) → Card
// gateway. The client↔service links are lossy (requests with --loss,
// responses with --ack-loss); the service↔gateway link is reliable and
// FIFO, so a recovery lookup never overtakes the charge it asks about.
func buildDoubleBilling(b *builder) error {
	p := b.params
	client := b.add(httpClientSpec(), &HTTPClient{
		Service: 1, Interval: p.Duration("interval"), Timeout: p.Duration("timeout"),
		KeyPerTry: p.Is("key", "per-attempt"),
	})
	service := b.add(paymentServiceSpec(p.Is("store", "durable"), b.set.Faults.CrashProbability), &PaymentService{
		Client: 0, Gateway: 2, MarkAfter: p.Is("mark", "after"), TTL: p.Duration("ttl"),
	})
	gateway := b.add(gatewaySpec(), &Gateway{Mode: p.String("provider")})
	b.wire()
	b.requestLink(client, service, 40, 20)
	b.responseLink(service, client, 40, 20)
	b.reliableLink(service, gateway, 20)
	b.reliableLink(gateway, service, 20)
	b.observe = sim.Observation{Origin: client, Request: MsgPayRequest, Processor: service, Sinks: 1 << SinkCardCharges}
	return nil
}
