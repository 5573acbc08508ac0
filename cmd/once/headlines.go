package main

import (
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// defaultRun reports whether the run is the scenario's default: no --set,
// no fault, ops or budget flag (the semantics, seed and output may be
// chosen). Only a default run shows the headline rows: with a --set the
// user is already looking at a variant of their own.
func (o *runOptions) defaultRun() bool {
	if o.flags == nil {
		return true
	}
	quiet := true
	o.flags.Visit(func(f *pflag.Flag) {
		switch f.Name {
		case "semantics", "seed", "format", "check", "save", "file":
		default:
			quiet = false
		}
	})
	return quiet
}

// runHeadlines runs the scenario's headline rows (expect rows marked
// headline) whose semantics is among sems, on the same seed: keyed faults
// make it the same schedule wherever the messages are the same.
func runHeadlines(sc *scenarios.Scenario, sems []sim.Semantics, seed uint64) ([]report.Run, error) {
	var out []report.Run
	for i := range sc.Expect {
		x := &sc.Expect[i]
		if !x.Headline || !slices.Contains(sems, x.Semantics) {
			continue
		}
		set := x.Settings(sc)
		cfg, err := sc.Config(set)
		if err != nil {
			return nil, fmt.Errorf("headline row %s: %w", x.Label(), err)
		}
		rec := sim.NewRecording(sim.NewRandom(seed))
		trace := &sim.Trace{}
		w, err := sim.NewWorld(cfg, rec, trace)
		if err != nil {
			return nil, fmt.Errorf("headline row %s: %w", x.Label(), err)
		}
		r := report.Run{Outcome: w.Run(), Replay: replayCommand(sc, x.Semantics, seed, set), Row: x.Label(), Note: x.Note, NoteText: lessonText(sc, "note."+x.RowKey(sc), x.Note),
			Effects: report.EffectValues(cfg.Observe, trace.Events), Sinks: report.SinkNames(cfg.Observe)}
		for _, f := range rec.Faults {
			r.FaultPlan = append(r.FaultPlan, cfg.Topology.FaultLine(f))
		}
		out = append(out, r)
	}
	return out, nil
}
