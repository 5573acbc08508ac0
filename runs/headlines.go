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
// make it the same schedule wherever the messages are the same. mem (nil
// for none) is charged for each row's run as the command's own runs are.
func Headlines(sc *scenarios.Scenario, sems []sim.Semantics, seed uint64, mem *Memory) ([]report.Run, error) {
	var out []report.Run
	for i := range sc.Expect {
		x := &sc.Expect[i]
		if !x.Headline || !slices.Contains(sems, x.Semantics) {
			continue
		}
		set := x.Settings(sc)
		run, err := Execute(sc, set, sim.NewRandom(seed), Options{Memory: mem})
		if err != nil {
			return nil, fmt.Errorf("headline row %s: %w", x.Label(), err)
		}
		run.Replay = Command(sc, x.Semantics, seed, set)
		r := run.Report()
		r.Row, r.Note, r.NoteText = x.Label(), x.Note, Text(sc, "note."+x.RowKey(sc), x.Note)
		out = append(out, r)
	}
	return out, nil
}
