package roles_test

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
)

// TestEveryMetricHasAUnit: a metric printed without its unit ("oldest-
// duplicate-age 60") leaves the reader guessing seconds or records.
func TestEveryMetricHasAUnit(t *testing.T) {
	c := scenarios.RoleCatalog()
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
