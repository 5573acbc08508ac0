package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// simFlags are the flags every simulating command shares.
type simFlags struct {
	semantics string
	seed      uint64
	ops       int
	faults    [sim.NumFaultKinds]float64 // one flag per sim.FaultKinds entry
	durations [sim.NumFaultKinds]int64   // one flag per duration setting
	sets      []string
	maxEvents int
	maxTime   string
	flags     *pflag.FlagSet
}

func (f *simFlags) register(cmd *cobra.Command, defaultSemantics string) {
	fl := cmd.Flags()
	f.flags = fl
	fl.StringVar(&f.semantics, "semantics", defaultSemantics, "amo|alo|idem|txn (long ids too), a comma list, or all")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the keyed fault and jitter decisions")
	fl.IntVar(&f.ops, "ops", 0, "number of operations (default: the scenario's)")
	f.registerFaults(fl)
	fl.StringArrayVar(&f.sets, "set", nil, "scenario parameter name=value (repeatable)")
	f.registerBudgets(fl)
}

// registerBudgets registers --max-events and --max-time, the budgets of
// every run. Every command that runs a scenario — run, replay, matrix,
// sweep — calls it; nothing else declares a budget flag.
func (f *simFlags) registerBudgets(fl *pflag.FlagSet) {
	f.flags = fl
	fl.IntVar(&f.maxEvents, "max-events", 0, fmt.Sprintf("event budget per run (default: the scenario's, else %d)", sim.DefaultMaxEvents))
	fl.StringVar(&f.maxTime, "max-time", "", fmt.Sprintf("virtual-time budget per run (default: the scenario's, else %s)", sim.DefaultMaxTime))
}

// budgetsInto overrides set's budgets by those given on the command line;
// a budget left out keeps set's (0: the scenario's).
func (f *simFlags) budgetsInto(set *scenarios.Settings) error {
	changed := func(name string) bool { return f.flags != nil && f.flags.Changed(name) }
	// A budget given is a budget: 0 would silently mean "the default".
	if changed("max-events") {
		if f.maxEvents < 1 || f.maxEvents > sim.MaxEventBudget {
			return fmt.Errorf("--max-events %d: want a count in [1, %d] (leave it out for the scenario's budget)", f.maxEvents, sim.MaxEventBudget)
		}
		set.MaxEvents = f.maxEvents
	}
	if changed("max-time") {
		d, err := scenarios.ParseDuration(f.maxTime)
		if err != nil {
			return fmt.Errorf("--max-time: %w", err)
		}
		if d < 1 {
			return fmt.Errorf("--max-time %s: want a positive duration, at least 1ms (leave it out for the scenario's budget)", f.maxTime)
		}
		set.MaxTime = d
	}
	return nil
}

// registerFaults registers one flag per fault kind of sim.FaultKinds (its
// probability) and one per duration setting. Every simulating command —
// run, matrix, sweep, the TUI — calls it; nothing else declares a fault flag.
func (f *simFlags) registerFaults(fl *pflag.FlagSet) {
	for k := range sim.FaultKinds {
		s := &sim.FaultKinds[k]
		fl.Float64Var(&f.faults[k], s.Name, 0, s.Help+" (default: the scenario's)")
		if d := s.Duration; d != nil {
			fl.Int64Var(&f.durations[k], d.Name, 0, fmt.Sprintf("%s (default: the scenario's, else %d)", d.Help, d.Default))
		}
	}
}

// semanticsFor resolves --semantics against what sc supports.
func (f *simFlags) semanticsFor(sc *scenarios.Scenario) ([]sim.Semantics, error) {
	if strings.TrimSpace(f.semantics) == "all" {
		return sc.Semantics, nil
	}
	var out []sim.Semantics
	for _, s := range strings.Split(f.semantics, ",") {
		sem, err := sim.ParseSemantics(s)
		if err != nil {
			return nil, fmt.Errorf("--semantics: %w", err)
		}
		if slices.Contains(out, sem) {
			return nil, fmt.Errorf("--semantics %s: %s is given twice", f.semantics, sem)
		}
		if !sc.Supports(sem) {
			var names []string
			for _, s := range sc.Semantics {
				names = append(names, s.Alias())
			}
			return nil, fmt.Errorf("--semantics %s: scenario %s supports %s", sem.Alias(), sc.Name, strings.Join(names, ", "))
		}
		out = append(out, sem)
	}
	return out, nil
}

// settingsFor builds the run settings: the scenario's defaults, overridden
// by every flag the user actually set.
func (f *simFlags) settingsFor(sc *scenarios.Scenario) (scenarios.Settings, error) {
	set := scenarios.Settings{Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{}}
	changed := func(name string) bool { return f.flags != nil && f.flags.Changed(name) }
	if changed("ops") {
		if f.ops < 1 {
			return set, fmt.Errorf("--ops %d: want a positive count", f.ops)
		}
		set.Ops = f.ops
	}
	if err := f.budgetsInto(&set); err != nil {
		return set, err
	}
	for k := range sim.FaultKinds {
		spec := &sim.FaultKinds[k]
		if changed(spec.Name) {
			if v := f.faults[k]; math.IsNaN(v) || v < 0 || v > 1 {
				return set, fmt.Errorf("--%s %v: a probability must be within [0,1]", spec.Name, v)
			}
			set.Faults.Probability[k] = f.faults[k]
		}
		if d := spec.Duration; d != nil && changed(d.Name) {
			if err := spec.CheckDuration(sim.Time(f.durations[k])); err != nil {
				return set, err
			}
			set.Faults.Duration[k] = sim.Time(f.durations[k])
		}
	}
	for _, s := range f.sets {
		k, v, err := scenarios.ParseSet(s)
		if err != nil {
			return set, err
		}
		set.Params[k] = v
	}
	if _, err := scenarios.ResolveParams(sc.Params, set.Params); err != nil {
		return set, fmt.Errorf("--set: %w", err)
	}
	return set, set.Faults.Validate()
}
