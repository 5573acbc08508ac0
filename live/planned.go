package live

import (
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/plans"
	"github.com/oncesim/once/sim"
)

// FromPlan is the one run of a saved fault plan (--replay FILE): its
// scenario, seed and run, the plan's faults scripted and the jitter from
// its seed when it has one. An error is the plan file's, for exit 2.
func FromPlan(file string) (*scenarios.Scenario, uint64, []Planned, error) {
	l, err := plans.Load(file, "")
	if err != nil {
		return nil, 0, nil, err
	}
	plan := l.Plan
	var rest sim.Chooser
	if plan.Jitter {
		rest = sim.NewJitter(plan.Seed)
	}
	set := scenarios.Settings{Semantics: plan.Semantics, Ops: plan.Ops, Faults: plan.Faults, Params: plan.Params}
	return l.Scenario, plan.Seed, []Planned{{Settings: set, Config: l.Config, Chooser: sim.NewScripted(l.Faults, rest),
		Replay: "once replay " + file, Planned: len(l.Faults)}}, nil
}

// Seeded is one run of sc per semantics of sems under set on seed, each
// charged to one memory account (too many operations are refused before
// anything starts). An error is bad input, for exit 2.
func Seeded(sc *scenarios.Scenario, sems []sim.Semantics, set scenarios.Settings, seed uint64) ([]Planned, error) {
	runs.Enforce()
	mem := runs.NewMemory(runs.MaxMemory)
	var ps []Planned
	for _, sem := range sems {
		set.Semantics = sem
		cfg, err := sc.Config(set)
		if err == nil {
			err = mem.Reserve(cfg.Ops)
		}
		if err != nil {
			return nil, err
		}
		ps = append(ps, Planned{Settings: set, Config: cfg, Chooser: sim.NewRandom(seed), Replay: runs.Command(sc, sem, seed, set)})
	}
	return ps, nil
}
