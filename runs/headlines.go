package runs

import (
	"fmt"
	"slices"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Headlines runs the scenario's headline rows (expect rows marked
// headline) whose semantics is among sems, on the same seed: keyed faults
// make it the same schedule wherever the messages are the same.
func Headlines(sc *scenarios.Scenario, sems []sim.Semantics, seed uint64) ([]report.Run, error) {
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
		r := report.Run{Outcome: w.Run(), Replay: Command(sc, x.Semantics, seed, set), Row: x.Label(), Note: x.Note, NoteText: Text(sc, "note."+x.RowKey(sc), x.Note),
			Effects: report.EffectValues(cfg.Observe, trace.Events), Sinks: report.SinkNames(cfg.Observe)}
		for _, f := range rec.Faults {
			r.FaultPlan = append(r.FaultPlan, cfg.Topology.FaultLine(f))
		}
		out = append(out, r)
	}
	return out, nil
}
