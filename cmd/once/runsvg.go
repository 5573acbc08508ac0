package main

import (
	"fmt"
	"io"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/svg"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// writeSVG draws the runs' space-time diagrams: one alone, or several side
// by side as columns on one shared time axis (one seed is one schedule:
// the same faults hit every semantics). Each title says what the user got
// and, apart, whether the semantics kept its own promise.
func writeSVG(w io.Writer, sc *scenarios.Scenario, seed uint64, runs []simulated) error {
	var panels []svg.Panel
	for _, r := range runs {
		o := r.outcome
		outcome := report.LocalOutcomeOf(sc.Outcome, o)
		var title string
		if len(runs) == 1 {
			title = fmt.Sprintf("%s · %s · %s\n%s", sc.Name, lang.Tf("run.seed", map[string]any{"Seed": seed}), outcome, report.PromiseText(o))
		} else {
			title = fmt.Sprintf("%s: %s\n%s", o.Semantics, outcome, report.PromiseText(o))
		}
		if o.Why != "" && o.Reason.Kind != sim.ReasonInvariant {
			title += " — " + lang.Reason(o.Reason) // an invariant is named in PromiseText
		}
		events, note := report.FocusEvents(r.trace.Events, focusOps(o))
		if note != "" {
			title += "\n" + note
		}
		panels = append(panels, svg.Panel{Topology: r.cfg.Topology, Events: events, Title: title})
	}
	if len(panels) == 1 {
		return svg.WritePanels(w, panels)
	}
	heading := fmt.Sprintf("%s · %s · %s\n%s", sc.Name, lang.Tf("run.seed", map[string]any{"Seed": seed}), lang.T("svg.one_schedule"), lessonText(sc, "summary", sc.Summary))
	return svg.WriteColumns(w, heading, panels)
}

// focusOps are the operations a long diagram keeps: those that did not
// end exactly once (lost or duplicated), the lesson's.
func focusOps(o *sim.Outcome) []sim.OpID {
	var out []sim.OpID
	for _, op := range o.Ops {
		if op.Verdict != sim.ExactlyOnce {
			out = append(out, op.Op)
		}
	}
	return out
}
