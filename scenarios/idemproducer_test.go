package scenarios_test

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// TestIdempotentProducerConfigAsTheClientResolvesIt: enable.idempotence=true
// with more than 5 requests in flight is refused, as the Java client's
// ConfigException refuses it; left to its default, idempotence is switched
// off instead and a resend after one lost ack is a second record; with at
// most 5 in flight the resend is recognised.
func TestIdempotentProducerConfigAsTheClientResolvesIt(t *testing.T) {
	sc, err := scenarios.Lookup("idempotent-producer-retry")
	if err != nil {
		t.Fatal(err)
	}
	_, err = sc.Config(scenarios.Settings{Semantics: sim.Idempotent, Ops: 2,
		Params: map[string]string{"idempotence": "true", "max-in-flight": "6"}})
	if err == nil || !strings.Contains(err.Error(), "must be set to at most 5. Current value is 6") {
		t.Fatalf("idempotence=true max-in-flight=6: got %v, want the client's refusal", err)
	}
	for _, c := range []struct {
		params map[string]string
		holds  bool
	}{
		{map[string]string{"idempotence": "true", "max-in-flight": "5", "partitions": "1"}, true},
		{map[string]string{"idempotence": "default", "max-in-flight": "6", "partitions": "1"}, false},
		{map[string]string{"idempotence": "false", "partitions": "1"}, false},
	} {
		cfg := exploreConfig(t, "idempotent-producer-retry", sim.Idempotent, 3, "ack-loss", c.params)
		res, err := search.Explore(cfg, search.Options{MaxFaults: 1, Promise: sim.ExactlyOne})
		if err != nil {
			t.Fatal(err)
		}
		if res.Holds != c.holds || !res.Complete {
			t.Errorf("%v: holds=%v complete=%v, want holds=%v", c.params, res.Holds, res.Complete, c.holds)
		}
	}
}
