package runs

import (
	"fmt"
	"io"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/plans"
	"github.com/oncesim/once/sim"
)

// Replay runs a loaded plan (saved at file) under each of sems: its own
// semantics replays it exactly; another applies the same faults, which
// name what they hit by identity, to that semantics' topology. Each run's
// hit count goes to stderr. With shrink, a violated run carries its
// violation shrunk to a minimal plan.
func Replay(l *plans.Loaded, file string, sems []sim.Semantics, shrink bool, stderr io.Writer) ([]Run, error) {
	plan := l.Plan
	var jitter func() sim.Chooser
	if plan.Jitter {
		jitter = func() sim.Chooser { return sim.NewJitter(plan.Seed) }
	}
	set := l.Settings
	var out []Run
	for _, sem := range sems {
		cfg, faults := l.Config, l.Faults
		if sem != plan.Semantics {
			set.Semantics = sem
			var err error
			if cfg, err = l.Scenario.Config(set); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", file, sem.Alias(), err)
			}
			if faults, err = plan.Resolve(file, cfg.Topology); err != nil {
				return nil, fmt.Errorf("%s (under %s): %w", file, sem.Alias(), err)
			}
		}
		var rest sim.Chooser
		if jitter != nil {
			rest = jitter()
		}
		chooser := sim.NewScripted(faults, rest)
		// Recorded, the faults are those the run met: a fault whose
		// message this semantics never sends is not listed as a hit.
		r, err := ExecuteConfig(cfg, chooser, Options{})
		if err != nil {
			return nil, fmt.Errorf("replay %s: %w", sem, err)
		}
		r.Roles = l.Scenario.Roles()
		o := r.Outcome
		fmt.Fprintln(stderr, lang.Nf("replay.hit", len(faults), map[string]any{"File": file, "Semantics": sem.Alias(), "Hit": chooser.Used()}))
		replay := "once replay " + file
		if sem != plan.Semantics {
			replay += " --semantics " + sem.Alias()
		}
		r.Replay, r.NoJitter = replay, !plan.Jitter
		if shrink && o.Status == sim.Violated {
			cex, _, err := Shrink(cfg, sem.Promise(), faults, jitter)
			if err != nil {
				return nil, err
			}
			cex.Replay = replay
			r.Shrunk = cex
		}
		out = append(out, r)
	}
	return out, nil
}

// SavePlans writes the fault plan of every run of sc on seed with set
// (one per semantics: file gets ".ALIAS" before its extension when there
// are several), all or nothing, and returns the paths written. A
// scenario file is named relative to the plan, with its hash.
func SavePlans(file string, sc *scenarios.Scenario, seed uint64, set scenarios.Settings, rs []Run) ([]string, error) {
	var ref, hash string
	if !FromCatalog(sc) {
		var err error
		if ref, hash, err = plans.FileRef(sc.File, file); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	var (
		paths []string
		ps    []*scenarios.Plan
		topos []*sim.Topology
		fs    [][]sim.Fault
	)
	for _, r := range rs {
		paths = append(paths, plans.Path(file, r.Outcome.Semantics, len(rs)))
		ps = append(ps, &scenarios.Plan{Scenario: sc.Name, File: ref, FileHash: hash, Semantics: r.Outcome.Semantics, Ops: set.Ops, Seed: seed, Jitter: true,
			Faults: set.Faults, Params: set.Params, MaxEvents: set.MaxEvents, MaxTime: set.MaxTime, FaultsUntil: set.FaultsUntil, Settle: set.Settle})
		topos, fs = append(topos, r.Config.Topology), append(fs, r.Faults)
	}
	return paths, plans.Save(paths, ps, topos, fs)
}
