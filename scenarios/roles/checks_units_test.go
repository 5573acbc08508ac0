package roles_test

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	_ "github.com/oncesim/once/scenarios/roles/flink"
	_ "github.com/oncesim/once/scenarios/roles/kafka"
	_ "github.com/oncesim/once/scenarios/roles/payments"
	_ "github.com/oncesim/once/scenarios/roles/queue"
)

// TestEveryMetricHasAUnit: a metric printed without its unit ("oldest-
// duplicate-age 60") leaves the reader guessing seconds or records.
func TestEveryMetricHasAUnit(t *testing.T) {
	names := strings.Split(roles.MetricNames(), ", ")
	if len(names) < 5 {
		t.Fatalf("only %d metrics registered: %v", len(names), names)
	}
	for _, n := range names {
		if roles.MetricUnit(n) == "" {
			t.Errorf("metric %s has no unit", n)
		}
	}
}
