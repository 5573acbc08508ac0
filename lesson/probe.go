package lesson

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/oncesim/once/explore"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// A Probe is one exhaustive search of a variant, as `once explore` runs
// it: the scenario under one semantics with its parameters, the fault
// kinds and the fault budget (empty and 0: the scenario's explore
// defaults). The mechanism questions are answered by probes: the same
// for every student, proved over every schedule rather than read from
// one seed.
type Probe struct {
	Scenario  string
	Semantics sim.Semantics
	Set       map[string]string
	Faults    string // comma list of fault kinds; "" for the scenario's explore defaults
	MaxFaults int    // 0 for the scenario's explore default
}

// A ProbeResult is what a probe found: whether the property held over
// every schedule, and otherwise the minimal counterexample's faults (as
// plan lines) and cause.
type ProbeResult struct {
	Holds  bool
	Faults []string // the minimal counterexample's plan lines
	Cause  string   // its cause, in English (the cache outlives a language)
	Rule   string   // the invariant it breaks; "" when an operation's effects break the promise
}

// Command is the explore command line that repeats the probe.
func (p Probe) Command() string {
	var b strings.Builder
	fmt.Fprintf(&b, "once explore %s --semantics %s", p.Scenario, p.Semantics.Alias())
	for _, k := range sortedKeys(p.Set) {
		fmt.Fprintf(&b, " --set %s=%s", k, p.Set[k])
	}
	if p.Faults != "" {
		fmt.Fprintf(&b, " --faults %s", p.Faults)
	}
	if p.MaxFaults > 0 {
		fmt.Fprintf(&b, " --max-faults %d", p.MaxFaults)
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// probes caches every probe's result by its command (a search is
// deterministic: the same command, the same result).
var probes sync.Map // string → probeEntry

type probeEntry struct {
	once sync.Once
	res  ProbeResult
	err  error
}

// Explore runs the probe (once per process: the result is cached).
func (p Probe) Explore() (ProbeResult, error) {
	e, _ := probes.LoadOrStore(p.Command(), &probeEntry{})
	entry := e.(*probeEntry)
	entry.once.Do(func() { entry.res, entry.err = p.explore() })
	return entry.res, entry.err
}

func (p Probe) explore() (ProbeResult, error) {
	sc, err := scenarios.Lookup(p.Scenario)
	if err != nil {
		return ProbeResult{}, fmt.Errorf("lesson: %s: %w", p.Command(), err)
	}
	var b explore.Bounds
	b.Defaults(sc, nil)
	if p.Faults != "" {
		b.Faults = p.Faults
	}
	if p.MaxFaults > 0 {
		b.MaxFaults = p.MaxFaults
	}
	var sets []string
	for _, k := range sortedKeys(p.Set) {
		sets = append(sets, k+"="+p.Set[k])
	}
	fail := func(err error) (ProbeResult, error) {
		return ProbeResult{}, fmt.Errorf("lesson: %s: %w", p.Command(), err)
	}
	promise, settings, _, err := b.Resolve(sc, p.Semantics, sets, nil)
	if err != nil {
		return fail(err)
	}
	cfg, err := sc.Config(settings)
	if err != nil {
		return fail(err)
	}
	opt := search.Options{MaxFaults: b.MaxFaults, MaxPreemptions: b.MaxPreemptions, Promise: promise, Workers: 1}
	res, err := search.Explore(cfg, opt)
	if err != nil {
		return fail(err)
	}
	if !res.Complete {
		return fail(fmt.Errorf("the search is incomplete (%s)", res.Cut))
	}
	if res.Holds {
		return ProbeResult{Holds: true}, nil
	}
	cex, err := explore.MinimalCounterexample(cfg, promise, sc, settings, res, opt, explore.Replay{Faults: b.Faults, Property: b.Property}, io.Discard)
	if err != nil {
		return fail(err)
	}
	return ProbeResult{Faults: cex.Faults, Cause: cex.Cause, Rule: cex.Rule}, nil
}
