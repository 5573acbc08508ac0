package roles_test

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/flink"
	"github.com/oncesim/once/scenarios/roles/generals"
	"github.com/oncesim/once/scenarios/roles/kafka"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/scenarios/roles/queue"
)

// TestEveryMetricHasAUnit: a metric printed without its unit ("oldest-
// duplicate-age 60") leaves the reader guessing seconds or records.
func TestEveryMetricHasAUnit(t *testing.T) {
	c := roles.NewCatalog()
	for _, register := range []func(*roles.Catalog){kafka.Register, flink.Register, generals.Register, payments.Register, queue.Register} {
		register(c)
	}
	names := strings.Split(c.MetricNames(), ", ")
	if len(names) < 5 {
		t.Fatalf("only %d metrics registered: %v", len(names), names)
	}
	for _, n := range names {
		if c.MetricUnit(n) == "" {
			t.Errorf("metric %s has no unit", n)
		}
	}
}
