package lang

import (
	"testing"

	"github.com/oncesim/once/scenarios"
)

// Every unit a catalog metric is measured in reads in Romanian and
// Russian, after a value and in a column head; English keeps the unit.
func TestMetricUnitsTranslated(t *testing.T) {
	units := map[string]bool{}
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: 1, Faults: sc.Faults})
			if err != nil {
				t.Fatalf("%s: %v", sc.Name, err)
			}
			if cfg.Metrics == nil {
				continue
			}
			for _, m := range cfg.Metrics() {
				if u := sc.Roles().MetricUnit(m.Name()); u != "" {
					units[u] = true
				}
			}
		}
	}
	if len(units) < 3 {
		t.Fatalf("the catalog's metrics have only %d units: is the scenario list empty?", len(units))
	}
	for u := range units {
		if got := English.Unit(u, "2"); got != u {
			t.Errorf("en: unit %q reads %q", u, got)
		}
		en := English.T("unithead." + u)
		if en == "unithead."+u {
			t.Errorf("unit %q has no unithead.%q in locales/events.en.toml", u, u)
		}
		if English.T("unit."+u) == "unit."+u {
			t.Errorf("unit %q has no unit.%q in locales/events.en.toml", u, u)
		}
	}
	for _, c := range []struct {
		l           Lang
		unit, value string
		want        string
	}{
		{Romanian, "payments", "1", "plată"}, {Romanian, "payments", "3", "plăți"}, {Romanian, "payments", "20", "de plăți"},
		{Russian, "payments", "1", "платёж"}, {Russian, "payments", "3", "платежа"}, {Russian, "payments", "5", "платежей"},
		{Russian, "payments", "1.5", "платежа"}, {Russian, "ms", "1958", "мс"},
	} {
		if got := c.l.Unit(c.unit, c.value); got != c.want {
			t.Errorf("%s: %s %s reads %q, want %q", c.l, c.value, c.unit, got, c.want)
		}
	}
}
