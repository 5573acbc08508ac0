package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/oncesim/once/explore"
	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// runLabExplore is `once lab --explore`: every schedule within the bound,
// each re-executed from the start with fresh processes.
func runLabExplore(o *labOptions, sc *scenarios.Scenario, stdout, stderr io.Writer) error {
	if o.format != "text" {
		return usageErr("--format %s: --explore writes text", o.format)
	}
	sems, err := runs.ParseSemantics(o.semantics, sc)
	if err != nil {
		return usageErr("%v", err)
	}
	if len(sems) != 1 {
		return usageErr("--explore: give one --semantics, e.g. idem")
	}
	sem := sems[0]
	if !o.flags.Changed("max-faults") {
		o.maxFaults = sc.ExploreDefaults.MaxFaults
	}
	if o.maxFaults < 0 || o.maxFaults > search.MaxFaults {
		return usageErr("--max-faults %d: want a fault count in [0, %d]", o.maxFaults, search.MaxFaults)
	}
	if o.workers < 1 {
		return usageErr("--workers %d: want a positive count", o.workers)
	}
	if o.schedules < 1 {
		return asUsage(usererr.New("positive_count", map[string]any{"Flag": "--max-schedules", "N": o.schedules}, fmt.Sprintf("--max-schedules %d: want a positive count", o.schedules)))
	}
	faults, kinds, err := labExploreFaults(o, sc)
	if err != nil {
		return err
	}
	set, err := o.settingsFor(sc)
	if err != nil {
		return usageErr("%v", err)
	}
	set.Semantics, set.Faults = sem, faults
	if !o.flags.Changed("ops") && sc.ExploreDefaults.Ops > 0 {
		set.Ops = sc.ExploreDefaults.Ops
	}
	l, err := o.buildLab(sc, set, o.seed, stderr)
	if err != nil {
		return err
	}
	explicit := o.flags.Changed("faults") && strings.TrimSpace(o.faults) != "all"
	if !l.Preemptible() && explicit && slices.Contains(kinds, sim.FaultPreempt.String()) {
		return usageErr("--faults %s: nothing to preempt: your node runs as one process, and a process answers one event at a time (give --replicas 2)", sim.FaultPreempt)
	}
	if o.preemptions, err = l.PreemptionBudget(o.preemptions, o.flags.Changed("max-preemptions")); err != nil {
		return usageErr("%v", err)
	}
	kept, err := l.KeepKindsThatBranch(sem, kinds, explicit)
	if err != nil {
		return usageErr("%v", err)
	}
	if len(kept) < len(kinds) {
		kinds, o.faults = kept, strings.Join(kept, ",")
	}
	set = l.Settings
	progress, end := lab.ProgressLine(o.progress)
	judge := l.JudgeFor(sem)
	defer explore.LimitHeap(l.MaxMemory)()
	res, err := l.Explore(sem, lab.ExploreOptions{MaxFaults: o.maxFaults, MaxPreemptions: o.preemptions, MaxSchedules: o.schedules, Workers: o.workers, Progress: progress, Judge: &judge, Stop: o.stop})
	end()
	if err != nil {
		return labError(err)
	}
	rep := lab.ExploreReport{Scenario: sc, Semantics: sem, Settings: set, Seed: o.seed, MaxFaults: o.maxFaults, MaxPreemptions: o.preemptions,
		Faults: o.faults, Kinds: kinds, Command: o.command(), Judge: judge}
	if err := l.WriteExplore(stdout, rep, res); err != nil {
		return labError(err)
	}
	if o.save != "" {
		if err := l.SaveCounterexample(o.save, rep, res, stderr); err != nil {
			return usageErr("--save %v", err)
		}
	}
	switch {
	case !res.Holds:
		return errViolation
	case !res.Complete && (o.check || res.Cut == "interrupted"):
		return errIncomplete
	}
	return nil
}

// labExploreFaults is what --explore offers as choices: the kinds of
// --faults (default: the scenario's explore.faults), each lasting as long
// as the scenario says (pause-ms, late-ms), as `once explore` does.
func labExploreFaults(o *labOptions, sc *scenarios.Scenario) (scenarios.Faults, []string, error) {
	if o.flags == nil || !o.flags.Changed("faults") { // not o.faults == "": --faults "" given names no kind, refused below
		o.faults = sc.ExploreDefaults.Faults
	}
	faults, kinds, err := sc.ExploreFaults(o.faults)
	if err != nil {
		return faults, nil, usageErr("%v", err)
	}
	if len(kinds) == 0 {
		return faults, nil, usageErr("--faults %q names no fault kind: want a comma list of %s", o.faults, strings.Join(sim.FaultKindNames(), ", "))
	}
	return faults, kinds, nil
}
