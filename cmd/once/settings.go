package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// simFlags are the flags every simulating command shares.
type simFlags struct {
	semantics string
	seed      uint64
	ops       int
	faults    [sim.MaxFaultKinds]float64 // one flag per sim.FaultKinds entry
	durations [sim.MaxFaultKinds]int64   // one flag per duration setting
	sets      []string
	maxEvents int
	maxTime   string
	// faultsUntil and settle are the liveness phase (registerLiveness).
	faultsUntil, settle string
	flags               *pflag.FlagSet
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

// registerLiveness registers --faults-until and --settle: the run's
// faults stop at a virtual time, and its liveness verdict says whether it
// then finished, within a bound.
func (f *simFlags) registerLiveness(fl *pflag.FlagSet) {
	fl.StringVar(&f.faultsUntil, "faults-until", "", "stop injecting faults at this virtual time (e.g. --faults-until=2s), then judge liveness: the run must finish with every operation's final outcome")
	fl.StringVar(&f.settle, "settle", "", "with --faults-until: the bound after the faults stop within which the run must settle (default: its time budget)")
}

// overrides are the flags' values for package runs.
func (f *simFlags) overrides() *runs.Overrides {
	o := &runs.Overrides{Ops: f.ops, MaxEvents: f.maxEvents, MaxTime: f.maxTime, FaultsUntil: f.faultsUntil, Settle: f.settle, Faults: f.faults, Durations: f.durations, Sets: f.sets}
	if f.flags != nil {
		o.Changed = f.flags.Changed
	}
	return o
}

// budgetsInto overrides set's budgets by those given on the command line.
func (f *simFlags) budgetsInto(set *scenarios.Settings) error { return f.overrides().Budgets(set) }

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

// resolve resolves --semantics for sc and builds its settings, with usage errors.
func (f *simFlags) resolve(sc *scenarios.Scenario) ([]sim.Semantics, scenarios.Settings, error) {
	sems, err := runs.ParseSemantics(f.semantics, sc)
	if err != nil {
		return nil, scenarios.Settings{}, usageErr("%v", err)
	}
	set, err := f.settingsFor(sc)
	if err != nil {
		return nil, scenarios.Settings{}, usageErr("%v", err)
	}
	return sems, set, nil
}

// settingsFor builds the run settings: the scenario's defaults, overridden
// by every flag the user actually set.
func (f *simFlags) settingsFor(sc *scenarios.Scenario) (scenarios.Settings, error) {
	return f.overrides().Settings(sc)
}
