package explore

import (
	"slices"

	"github.com/oncesim/once/scenarios"
)

// Bounds are the settings of a search that default to the scenario's
// explore defaults.
type Bounds struct {
	Semantics      string
	Ops            int
	MaxFaults      int
	MaxPreemptions int
	Faults         string
	Property       string
}

// Defaults fills every bound the user did not give (given reports a flag
// set on the command line) from the scenario's explore defaults.
func (b *Bounds) Defaults(sc *scenarios.Scenario, given func(string) bool) {
	changed := func(name string) bool { return given != nil && given(name) }
	d := sc.ExploreDefaults
	if !changed("semantics") && len(sc.Semantics) > 0 {
		// The strongest semantics the scenario supports: the one whose
		// promise is worth proving (idem, or txn for Kafka and Flink).
		b.Semantics = slices.Max(sc.Semantics).Alias()
	}
	for _, f := range []struct {
		name string
		dst  *int
		def  int
	}{{"ops", &b.Ops, d.Ops}, {"max-faults", &b.MaxFaults, d.MaxFaults}, {"max-preemptions", &b.MaxPreemptions, d.MaxPreemptions}} {
		if !changed(f.name) {
			*f.dst = f.def
		}
	}
	if !changed("faults") {
		b.Faults = d.Faults
	}
	if !changed("property") {
		b.Property = d.Property
	}
}
