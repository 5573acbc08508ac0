// Package matrix is `once matrix`'s library: the expectation rows of a
// set of scenarios, one run configuration each, and the report of their
// tallies over many seeds judged against what each row declares.
package matrix

import (
	"fmt"
	"maps"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Scenarios resolves the scenarios of a matrix, in the order given: the
// files, else the catalog names (each once), else the whole catalog in
// name order.
func Scenarios(names, files []string) ([]*scenarios.Scenario, error) {
	var out []*scenarios.Scenario
	switch {
	case len(files) > 0:
		for _, f := range files {
			sc, err := scenarios.LoadFile(f)
			if err != nil {
				return nil, err
			}
			out = append(out, sc)
		}
	case len(names) > 0:
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n] {
				continue
			}
			seen[n] = true
			sc, err := scenarios.Lookup(n)
			if err != nil {
				return nil, err
			}
			out = append(out, sc)
		}
	default:
		out = scenarios.All()
	}
	return out, nil
}

// Row is one expectation row to run.
type Row struct {
	Scenario *scenarios.Scenario
	Expect   *scenarios.Expectation
	Settings scenarios.Settings
	Config   *sim.Config
}

// Label names the row in a shard file: the scenario and the row's label.
func (r *Row) Label() string { return r.Scenario.Name + " " + r.Expect.Label() }

// Rows builds every expectation row of scs; budgets, if not nil, applies
// the budgets given on the command line to each row's settings.
func Rows(scs []*scenarios.Scenario, budgets func(*scenarios.Settings) error) ([]Row, error) {
	var rows []Row
	for _, sc := range scs {
		for i := range sc.Expect {
			e := &sc.Expect[i]
			set := e.Settings(sc)
			if budgets != nil {
				if err := budgets(&set); err != nil {
					return nil, err
				}
			}
			cfg, err := sc.Config(set)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", sc.Name, e.Label(), err)
			}
			rows = append(rows, Row{Scenario: sc, Expect: e, Settings: set, Config: cfg})
		}
	}
	return rows, nil
}

// BatchOptions are the batch options of rows: a swarm (each seed draws
// its own fault profile) when swarm is set, except for the rows whose
// claims hold at their own rates only (Expectation.RateBound), which run
// at those rates.
func BatchOptions(rows []Row, swarm bool) batch.Options {
	opt := batch.Options{Swarm: swarm}
	if swarm {
		opt.OwnRates = make([]bool, len(rows))
		for i := range rows {
			opt.OwnRates[i] = rows[i].Expect.RateBound != ""
		}
	}
	return opt
}

// Doc is the report of rows with their tallies over seeds (swarm: each
// seed drew its own fault profile; a row that made no run, not reached by
// an interrupted batch, is left out); verdict is Violated when an
// expectation failed or, in a liveness phase, a run did not settle, else
// Unknown when one is unknown (a run cut by a budget), else Held.
func Doc(rows []Row, tallies []batch.Tally, seeds int, swarm bool) (doc report.MatrixDoc, verdict sim.Status) {
	failed, unknown := false, false
	doc = report.MatrixDoc{Schema: report.MatrixSchema, Seeds: seeds, Swarm: swarm, Cells: []report.MatrixCell{}}
	for i, r := range rows {
		t := &tallies[i]
		if t.Runs == 0 {
			continue // never reached: an interrupted matrix reports the rows that ran
		}
		c := report.NewMatrixCell(&t.Tally)
		c.Scenario, c.Row, c.Semantics, c.Alias = r.Scenario.Name, r.Expect.Label(), r.Expect.Semantics.String(), r.Expect.Semantics.Alias()
		c.Changes = r.Expect.Changes(r.Scenario)
		c.Params = maps.Clone(r.Expect.Params)
		if c.Params == nil {
			c.Params = map[string]string{}
		}
		c.Ops, c.Faults, c.Note, c.Expected = r.Settings.Ops, r.Settings.Faults, r.Expect.Note, r.Expect.ClaimsString()
		if c.Note != "" {
			c.NoteText = runs.Text(r.Scenario, "note."+r.Expect.RowKey(r.Scenario), c.Note)
		}
		ownRates := swarm && r.Expect.RateBound != ""
		if ownRates {
			c.RateBound = r.Expect.RateBound
			c.RateBoundText = runs.Text(r.Scenario, "rate-bound."+r.Expect.RowKey(r.Scenario), c.RateBound)
		}
		verdict, claim := t.Judge(r.Expect)
		claimText := ""
		if claim != 0 {
			claimText = claim.String()
		}
		c.SetExpectation(verdict.String(), claimText)
		seed := uint64(0)
		switch verdict {
		case batch.Failed:
			failed = true
			seed = t.Witness(claim)
		case batch.Unknown:
			unknown = true
			seed = t.FirstUnfinished
		}
		if seed != 0 {
			c.Replay = runs.Command(r.Scenario, r.Expect.Semantics, seed, r.Settings)
			if swarm && !ownRates {
				c.Replay += runs.SwarmFlag(true)
				c.SwarmProfile = sim.NewSwarmProfile(seed).String()
			}
		}
		c.Liveness = report.NewBatchLiveness(r.Settings.FaultsUntil, r.Settings.Settle, t.Runs, t.Unsettled)
		if c.Liveness != nil && t.Unsettled > 0 {
			failed = true // a run that does not settle once the faults stop is a failure of its own
			c.Liveness.Replay = runs.Command(r.Scenario, r.Expect.Semantics, t.FirstUnsettled, r.Settings)
			if swarm && !ownRates {
				c.Liveness.Replay += runs.SwarmFlag(true)
				c.Liveness.SwarmProfile = sim.NewSwarmProfile(t.FirstUnsettled).String()
			}
		}
		doc.Cells = append(doc.Cells, c)
	}
	switch {
	case failed:
		return doc, sim.Violated
	case unknown:
		return doc, sim.Unknown
	}
	return doc, sim.Held
}
