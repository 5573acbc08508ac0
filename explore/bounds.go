package explore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
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
	// Reduce is --reduce: none, symmetry or all (the default); por is
	// refused (search.ParseReduction).
	Reduce string
}

// Reduction is the reduction --reduce asks for; Validate has checked it.
func (b *Bounds) Reduction() search.Reduction {
	r, _ := search.ParseReduction(b.Reduce)
	return r
}

// Validate checks the numeric bounds of a search and its budgets, as the
// command line gave them (given reports a flag set there): 0 given for a
// budget would silently mean its default, so it is refused, and so is a
// negative budget, each naming its flag and value.
func (b *Bounds) Validate(workers, maxDepth, maxStates int, given func(string) bool) error {
	switch {
	case b.MaxFaults < 0 || b.MaxFaults > search.MaxFaults:
		return fmt.Errorf("--max-faults %d: want a fault count in [0, %d]", b.MaxFaults, search.MaxFaults)
	case workers < 1:
		return fmt.Errorf("--workers %d: want at least 1", workers)
	case b.MaxPreemptions < 0 || b.MaxPreemptions > search.MaxPreemptions:
		return fmt.Errorf("--max-preemptions %d: want a count in [0, %d]", b.MaxPreemptions, search.MaxPreemptions)
	}
	if _, err := search.ParseReduction(b.Reduce); err != nil {
		return err
	}
	for _, budget := range []struct {
		name   string
		v, def int
	}{{"max-depth", maxDepth, search.DefaultMaxDepth}, {"max-states", maxStates, search.DefaultMaxStates}} {
		if budget.v < 0 || budget.v == 0 && given != nil && given(budget.name) {
			return fmt.Errorf("--%s %d: want at least 1 (leave it out for the default, %d)", budget.name, budget.v, budget.def)
		}
	}
	return nil
}

// Resolve turns the bounds into what a search of sc under sem runs: the
// property (its promise), the settings (the fault kinds of --faults and
// each --set name=value) and the fault kinds that branch. Kinds that
// cannot branch in this scenario are dropped as OnlyKindsThatBranch says,
// and the bounds are updated to the ones the search uses.
func (b *Bounds) Resolve(sc *scenarios.Scenario, sem sim.Semantics, sets []string, given func(string) bool) (sim.Promise, scenarios.Settings, []string, error) {
	var promise sim.Promise
	switch b.Property {
	case "exactly-once":
		promise = sim.ExactlyOne
	case "promise":
		promise = sem.Promise()
	default:
		return 0, scenarios.Settings{}, nil, fmt.Errorf("--property %q: want exactly-once or promise", b.Property)
	}
	faults, kinds, err := sc.ExploreFaults(b.Faults)
	if err != nil {
		return 0, scenarios.Settings{}, nil, err
	}
	if len(kinds) == 0 {
		// An empty list would prove a property of the fault-free run only
		// and print HOLDS: say so instead (--max-faults 0 is the way to ask
		// for that).
		return 0, scenarios.Settings{}, nil, fmt.Errorf("--faults %q names no fault kind: want a comma list of %s, or all", b.Faults, strings.Join(sim.FaultKindNames(), ", "))
	}
	set := scenarios.Settings{Semantics: sem, Ops: b.Ops, Faults: faults, Params: map[string]string{}}
	for _, s := range sets {
		k, v, err := scenarios.ParseSet(s)
		if err != nil {
			return 0, scenarios.Settings{}, nil, err
		}
		set.Params[k] = v
	}
	if _, err := scenarios.ResolveParams(sc.Params, set.Params); err != nil {
		return 0, scenarios.Settings{}, nil, fmt.Errorf("--set: %w", err) // as run, sweep and lab name it
	}
	ks := Kinds{Faults: b.Faults, MaxPreemptions: b.MaxPreemptions, Changed: given}
	if err := ks.OnlyKindsThatBranch(sc, &set, &kinds); err != nil {
		return 0, scenarios.Settings{}, nil, err
	}
	b.Faults, b.MaxPreemptions = ks.Faults, ks.MaxPreemptions
	return promise, set, kinds, nil
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
