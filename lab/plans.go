package lab

import (
	"errors"
	"fmt"
	"io"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/plans"
	"github.com/oncesim/once/sim"
)

// LoadPlan loads a plan for --replay with the lab build makes for its
// scenario and settings, its faults resolved against the lab's topology:
// a preemption names a store answer (msg=read_ok), a message kind of
// the lab's nodes only. An error of build is returned as it is.
func LoadPlan(path string, build func(*scenarios.Scenario, scenarios.Settings, uint64) (*Lab, error)) (*plans.Loaded, *Lab, error) {
	var l *Lab
	var buildErr error
	loaded, err := plans.LoadFor(path, "", func(p *plans.Loaded) (*sim.Topology, error) {
		if l, buildErr = build(p.Scenario, p.Settings, p.Plan.Seed); buildErr != nil {
			return nil, buildErr
		}
		s, err := l.NewSession(p.Plan.Semantics)
		if err != nil {
			return nil, err
		}
		return s.Config().Topology, nil
	})
	if buildErr != nil {
		return nil, nil, buildErr
	}
	return loaded, l, err
}

// SaveCounterexample writes the shrunk counterexample of a search (once
// WriteExplore has shrunk it) as a plan, for --replay FILE; a search
// without one writes nothing, and says so on w.
func (l *Lab) SaveCounterexample(file string, r ExploreReport, res *ExploreResult, w io.Writer) error {
	if res.Holds {
		fmt.Fprintf(w, "--save %s: no counterexample, nothing written\n", file)
		return nil
	}
	if res.Topology == nil {
		return errors.New("lab: the counterexample was not shrunk")
	}
	sc, set := r.Scenario, r.Settings
	var ref, hash string
	if !runs.FromCatalog(sc) {
		var err error
		if ref, hash, err = plans.FileRef(sc.File, file); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	// A search's runs draw no jitter: the plan says so (Jitter false),
	// and --replay runs its faults alone.
	p := &scenarios.Plan{Scenario: sc.Name, File: ref, FileHash: hash, Semantics: r.Semantics, Ops: set.Ops, Seed: r.Seed,
		Faults: set.Faults, Params: set.Params, MaxEvents: set.MaxEvents, MaxTime: set.MaxTime}
	if err := plans.Save([]string{file}, []*scenarios.Plan{p}, []*sim.Topology{res.Topology}, [][]sim.Fault{res.Plan}); err != nil {
		return err
	}
	fmt.Fprintf(w, "saved fault plan %s\n", file)
	return nil
}
